import { newUlid } from '../ids';
import type { MessageToSend } from './send-confirmed';

/**
 * Items that go together, as few broker messages as hold them (`max` each, in order): each message's payload is
 * `{ event_id, occurred_at, [field]: items }`, its event id (also its messageId) naming only the message; the items
 * keep their own ids.
 */
export function batchMessages(
  routingKey: string,
  field: string,
  items: readonly unknown[],
  max: number,
): MessageToSend[] {
  const messages: MessageToSend[] = [];
  for (let i = 0; i < items.length; i += max) {
    const eventId = newUlid();
    const payload = {
      event_id: eventId,
      occurred_at: new Date().toISOString(),
      [field]: items.slice(i, i + max),
    };
    messages.push({ routingKey, payload, messageId: eventId });
  }
  return messages;
}
