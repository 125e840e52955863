import type { DeliverCommand, DomainEventKey, DomainEventPayloads } from '@bm/contracts';
import { newUlid } from '@bm/platform';

/** What a domain event says beyond its id, tenant and time. */
export type EventFields<K extends DomainEventKey> = Omit<
  DomainEventPayloads[K],
  'event_id' | 'tenant_id' | 'occurred_at'
>;

/**
 * A domain event with its id and time; the id is also the AMQP messageId consumers dedupe on. A new id unless the
 * event has its own (`statusEvent`: a message's status event is the same event each time it is emitted).
 */
export function buildEvent<K extends DomainEventKey>(
  tenantId: number,
  fields: EventFields<K>,
  eventId: string = newUlid(),
): { messageId: string; payload: Record<string, unknown> } {
  return {
    messageId: eventId,
    payload: { event_id: eventId, tenant_id: tenantId, occurred_at: new Date().toISOString(), ...fields },
  };
}

// The internal command that hands queued messages to a send worker (its contract: libs/contracts).
export { DELIVER_COMMAND } from '@bm/contracts';

/** A queued message handed to the send workers, with the trace its send continues. */
export interface MessageToDeliver {
  id: number;
  traceparent?: string | null;
}

/**
 * The command that hands queued messages to the send workers (`messaging.deliver`): one per write that queues
 * them, written in its transaction, each message with its trace. Every producer builds it here: the send path's
 * insert (one command for the statement's sends), the scheduler's releases and requeues, a campaign recipient.
 */
export function deliverCommand(messages: readonly MessageToDeliver[]): {
  messageId: string;
  payload: DeliverCommand;
} {
  return {
    // Unique per command (a message may get several: retries, requeues); the workers dedupe by the claim, not the id.
    messageId: `deliver-${newUlid()}`,
    payload: {
      messages: messages.map((m) =>
        m.traceparent ? { id: m.id, traceparent: m.traceparent } : { id: m.id },
      ),
    },
  };
}
