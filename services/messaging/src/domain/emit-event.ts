import type { DomainEventKey, DomainEventPayloads } from '@bm/contracts';
import { newUlid } from '@bm/platform';

/** What a domain event says beyond its id, tenant and time. */
export type EventFields<K extends DomainEventKey> = Omit<
  DomainEventPayloads[K],
  'event_id' | 'tenant_id' | 'occurred_at'
>;

/** A domain event with its id and time; the id is also the AMQP messageId consumers dedupe on. */
export function buildEvent<K extends DomainEventKey>(
  tenantId: number,
  fields: EventFields<K>,
): { messageId: string; payload: Record<string, unknown> } {
  const eventId = newUlid();
  return {
    messageId: eventId,
    payload: { event_id: eventId, tenant_id: tenantId, occurred_at: new Date().toISOString(), ...fields },
  };
}

// The internal command that hands queued messages to a send worker (its contract: libs/contracts).
export { DELIVER_COMMAND } from '@bm/contracts';
