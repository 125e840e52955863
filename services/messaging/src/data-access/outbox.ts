import type { DomainEventKey } from '@bm/contracts';
import { enqueueEvent, newUlid } from '@bm/platform';
import type { EntityManager } from 'typeorm';
import { buildEvent, DELIVER_COMMAND, type EventFields } from '../domain/emit-event';
import type { EventOutbox } from '../domain/ports/outbox.port';
import { MESSAGING_SCHEMA } from './data-source';

/** Messaging's outbox table, written through the platform's one helper. */
export class MessagingOutbox implements EventOutbox {
  async emit<K extends DomainEventKey>(
    tx: EntityManager,
    routingKey: K,
    tenantId: number,
    fields: EventFields<K>,
  ): Promise<void> {
    await enqueueEvent(tx, MESSAGING_SCHEMA, { routingKey, ...buildEvent<K>(tenantId, fields) });
  }

  async deliver(tx: EntityManager, messageLogId: number): Promise<void> {
    await enqueueEvent(tx, MESSAGING_SCHEMA, {
      routingKey: DELIVER_COMMAND,
      // Unique per command (a message may get several: retries, requeues); consumers dedupe by the claim, not the id.
      messageId: `deliver-${messageLogId}-${newUlid()}`,
      payload: { message_log_id: messageLogId },
    });
  }
}
