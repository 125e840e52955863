import {
  DOMAIN_EVENTS,
  MAX_STATUS_EVENTS_PER_BATCH,
  messageStatusesBatchSchema,
  type MessageStatusesBatch,
} from '@bm/contracts';
import { validate } from '@bm/platform';
import { statusEventMessages } from '../../src/data-access/status-event-sender';

const event = (id: number, campaignRecipientId: string | null = null) => ({
  eventId: `01JEVENT${String(id).padStart(18, '0')}`,
  event: {
    event_id: `01JEVENT${String(id).padStart(18, '0')}`,
    message_log_id: id,
    status: 'delivered',
    campaign_recipient_id: campaignRecipientId,
  },
  traceparent: id % 2 === 0 ? `00-${'a'.repeat(31)}${id % 10}-00f067aa0ba902b7-01` : undefined,
});

describe("the broker messages of a status batch's events", () => {
  it('when events of no campaign recipient and of one come together, then the first go in one batch message with their traces and the recipient one alone under the event name', () => {
    const messages = statusEventMessages([event(1), event(2, 'rcp-1'), event(4)]);
    expect(messages.map((m) => m.routingKey)).toEqual([
      DOMAIN_EVENTS.messageStatusUpdated,
      DOMAIN_EVENTS.messageStatusesUpdated,
    ]);
    expect(messages[0]).toMatchObject({ messageId: event(2).eventId, payload: { message_log_id: 2 } });
    expect(messages[0].headers).toEqual({ traceparent: event(2).traceparent });
    const batch = validate(messageStatusesBatchSchema, messages[1].payload);
    expect(messages[1].messageId).toBe(batch.event_id);
    expect(batch.events).toEqual([
      { event: event(1).event, traceparent: null },
      { event: event(4).event, traceparent: event(4).traceparent },
    ]);
  });

  it('when more events than one batch holds come together, then they go in as few batch messages as hold them, in order', () => {
    const many = Array.from({ length: MAX_STATUS_EVENTS_PER_BATCH + 1 }, (_, i) => event(i + 1));
    const messages = statusEventMessages(many);
    expect(messages).toHaveLength(2);
    const ids = messages.flatMap((m) =>
      (m.payload as MessageStatusesBatch).events.map((e) => e.event.message_log_id),
    );
    expect(ids).toEqual(many.map((e) => e.event.message_log_id));
    expect(new Set(messages.map((m) => m.messageId)).size).toBe(2);
  });
});
