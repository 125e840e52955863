import type { DomainEventKey } from '@bm/contracts';
import type { EventFields, MessageToDeliver } from '../emit-event';
import type { Tx } from './unit-of-work.port';

/** The service's outbox: what is written in a transaction is published by the relay after it commits. */
export interface EventOutbox {
  /** A domain event (`buildEvent` gives it its tenant, time and, unless it has its own, its id). */
  emit<K extends DomainEventKey>(
    tx: Tx,
    routingKey: K,
    tenantId: number,
    fields: EventFields<K>,
    eventId?: string,
  ): Promise<void>;
  /** The internal command that hands queued messages to the send workers (`deliverCommand`); none for none. */
  deliver(tx: Tx, messages: readonly MessageToDeliver[]): Promise<void>;
}
