import type { DomainEventKey } from '@bm/contracts';
import type { EventFields } from '../emit-event';
import type { Tx } from './unit-of-work.port';

/** The service's outbox: what is written in a transaction is published by the relay after it commits. */
export interface EventOutbox {
  /** A domain event (`buildEvent` gives it its id, tenant and time). */
  emit<K extends DomainEventKey>(
    tx: Tx,
    routingKey: K,
    tenantId: number,
    fields: EventFields<K>,
  ): Promise<void>;
  /** The internal command that hands one queued message to a send worker. */
  deliver(tx: Tx, messageLogId: number): Promise<void>;
}
