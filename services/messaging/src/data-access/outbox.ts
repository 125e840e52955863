import { routingKeyOf, type DomainEventKey } from '@bm/contracts';
import { enqueueEvent } from '@bm/platform';
import type { EntityManager } from 'typeorm';
import {
  buildEvent,
  DELIVER_COMMAND,
  deliverCommand,
  type EventFields,
  type MessageToDeliver,
} from '../domain/emit-event';
import type { EventOutbox } from '../domain/ports/outbox.port';
import { MESSAGING_SCHEMA } from './data-source';

/** Messaging's outbox table, written through the platform's one helper. */
export class MessagingOutbox implements EventOutbox {
  async emit<K extends DomainEventKey>(
    tx: EntityManager,
    routingKey: K,
    tenantId: number,
    fields: EventFields<K>,
    eventId?: string,
  ): Promise<void> {
    // A status event of no campaign recipient goes under its own key: campaign's queue does not take it.
    await enqueueEvent(tx, MESSAGING_SCHEMA, {
      routingKey: routingKeyOf(routingKey, fields),
      ...buildEvent<K>(tenantId, fields, eventId),
    });
  }

  async deliver(tx: EntityManager, messages: readonly MessageToDeliver[]): Promise<void> {
    if (messages.length === 0) return;
    await enqueueEvent(tx, MESSAGING_SCHEMA, { routingKey: DELIVER_COMMAND, ...deliverCommand(messages) });
  }
}
