import { ulid } from 'ulidx';
import type { EntityManager } from 'typeorm';
import type { DomainEventKey, DomainEventPayloads } from '@bm/contracts';
import { enqueueEvent } from '@bm/platform';
import { MESSAGING_SCHEMA } from '../data-access/data-source';

type Fields<K extends DomainEventKey> = Omit<
  DomainEventPayloads[K],
  'event_id' | 'tenant_id' | 'occurred_at'
>;

/** Writes a domain event into the outbox inside the caller's transaction; the relay publishes it after commit. */
export async function emitEvent<K extends DomainEventKey>(
  tx: EntityManager,
  routingKey: K,
  tenantId: number,
  fields: Fields<K>,
): Promise<void> {
  const eventId = ulid();
  await enqueueEvent(tx, MESSAGING_SCHEMA, {
    routingKey,
    messageId: eventId,
    payload: { event_id: eventId, tenant_id: tenantId, occurred_at: new Date().toISOString(), ...fields },
  });
}

/** The internal command that hands one queued message to a send worker. */
export const DELIVER_COMMAND = 'messaging.deliver';

export async function enqueueDelivery(tx: EntityManager, messageLogId: number): Promise<void> {
  await enqueueEvent(tx, MESSAGING_SCHEMA, {
    routingKey: DELIVER_COMMAND,
    messageId: `deliver-${messageLogId}-${ulid()}`,
    payload: { message_log_id: messageLogId },
  });
}
