import { DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS, MAX_STATUS_EVENTS_PER_BATCH } from '@bm/contracts';
import {
  enqueueEvents,
  batchMessages,
  sendConfirmed,
  withTransaction,
  type EventPublisher,
  type Logger,
  type MessageToSend,
} from '@bm/platform';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { StatusEventToSend } from '../domain/ports/message-log.port';
import type { StatusEvents } from '../domain/ports/status-events.port';
import { MESSAGING_SCHEMA } from './data-source';
import { statusRoutingKey } from './message-log.repository';

/** Waits between tries while the events can be neither sent nor stored (the broker and the database both away). */
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

/**
 * Sends a committed status batch's events to the broker, confirmed, before its receipts are acknowledged: no
 * outbox row and no relay mark for them, and one broker message for all those of no campaign recipient
 * (statusEventMessages). A broker that is away or does not confirm within `timeoutMs` gets them
 * through the outbox instead (written in a transaction of its own). This answers only once the events are
 * confirmed or stored: until then the receipts stay unacknowledged, and a crash meanwhile has the broker deliver
 * them again, flagged, which sends the events again (StatusReport.repeat).
 */
export class StatusEventSender implements StatusEvents {
  constructor(
    private readonly dataSource: DataSource,
    private readonly amqp: EventPublisher,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  async send(events: readonly StatusEventToSend[]): Promise<void> {
    if (events.length === 0) return;
    const messages = statusEventMessages(events);
    for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, LAST_RETRY_MS)) {
      const sent = await sendConfirmed(this.amqp, messages, this.timeoutMs);
      if (sent.confirmed) return;
      try {
        await withTransaction(this.dataSource, (tx) => enqueueEvents(tx, MESSAGING_SCHEMA, messages));
        this.logger.warn('status events not confirmed by the broker, stored in the outbox instead', {
          events: messages.length,
          error: sent.error,
        });
        return;
      } catch (err) {
        this.logger.warn('status events neither confirmed nor stored, trying again', {
          events: messages.length,
          error: sent.error,
          outbox_error: (err as Error).message,
          retry_in_ms: wait,
        });
        await sleep(wait);
      }
    }
  }
}

/**
 * The broker messages of a status batch's events: those of no campaign recipient together, in batch messages
 * (`message.statuses_updated`, each event with its own id and trace); a campaign recipient's alone under the event's
 * name, which campaign's queue binds.
 */
export function statusEventMessages(events: readonly StatusEventToSend[]): MessageToSend[] {
  const alone: MessageToSend[] = [];
  const together: Array<{ event: object; traceparent: string | null }> = [];
  for (const e of events) {
    const routingKey = statusRoutingKey(e.event);
    if (routingKey === DIRECT_STATUS_ROUTING_KEY)
      together.push({ event: e.event, traceparent: e.traceparent ?? null });
    else
      alone.push({
        routingKey,
        payload: e.event,
        messageId: e.eventId,
        headers: e.traceparent ? { traceparent: e.traceparent } : {},
      });
  }
  return [
    ...alone,
    ...batchMessages(DOMAIN_EVENTS.messageStatusesUpdated, 'events', together, MAX_STATUS_EVENTS_PER_BATCH),
  ];
}
