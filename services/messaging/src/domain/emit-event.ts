import type { EntityManager } from 'typeorm';
import type { DomainEventKey, DomainEventPayloads } from '@bm/contracts';
import { enqueueEvent, newUlid } from '@bm/platform';
import { MESSAGING_SCHEMA } from '../data-access/data-source';
import { DELIVER_COMMAND } from '../data-access/message-log.repository';

type Fields<K extends DomainEventKey> = Omit<
  DomainEventPayloads[K],
  'event_id' | 'tenant_id' | 'occurred_at'
>;

/** A domain event with its id and time; the id is also the AMQP messageId consumers dedupe on. */
export function buildEvent<K extends DomainEventKey>(
  tenantId: number,
  fields: Fields<K>,
): { messageId: string; payload: Record<string, unknown> } {
  const eventId = newUlid();
  return {
    messageId: eventId,
    payload: { event_id: eventId, tenant_id: tenantId, occurred_at: new Date().toISOString(), ...fields },
  };
}

/** Writes a domain event into the outbox inside the caller's transaction; the relay publishes it after commit. */
export async function emitEvent<K extends DomainEventKey>(
  tx: EntityManager,
  routingKey: K,
  tenantId: number,
  fields: Fields<K>,
): Promise<void> {
  await enqueueEvent(tx, MESSAGING_SCHEMA, { routingKey, ...buildEvent<K>(tenantId, fields) });
}

export { DELIVER_COMMAND };

export async function enqueueDelivery(tx: EntityManager, messageLogId: number): Promise<void> {
  await enqueueEvent(tx, MESSAGING_SCHEMA, {
    routingKey: DELIVER_COMMAND,
    // Unique per command (a message may get several: retries, requeues); consumers dedupe by the claim, not the id.
    messageId: `deliver-${messageLogId}-${newUlid()}`,
    payload: { message_log_id: messageLogId },
  });
}
