import {
  INBOX_STREAM_EVENTS,
  type ConversationChangedEvent,
  type ConversationMessageEvent,
} from '@bm/contracts';
import type { InboxEventLog } from '../ports/inbox-events.port';

export type InboxEventKey = keyof typeof INBOX_STREAM_EVENTS;

/**
 * A conversation event from messaging, kept in its tenant's inbox stream for every replica's browsers; the
 * stream's `data` is the event less its id, tenant and time. A redelivered event is kept once.
 */
export async function keepInboxEvent(
  deps: { inboxEvents: InboxEventLog },
  key: InboxEventKey,
  payload: ConversationMessageEvent | ConversationChangedEvent,
): Promise<void> {
  const data =
    'conversation' in payload
      ? { conversation: payload.conversation }
      : { conversation_id: payload.conversation_id, message: payload.message };
  await deps.inboxEvents.append(
    payload.tenant_id,
    payload.event_id,
    INBOX_STREAM_EVENTS[key],
    JSON.stringify(data),
  );
}
