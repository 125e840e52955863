import type Joi from 'joi';
import {
  DOMAIN_EVENT_SCHEMAS,
  INBOX_STREAM_EVENTS,
  retryPolicyOf,
  type ConsumerQueueName,
} from '@bm/contracts';
import { validate, type AmqpClient } from '@bm/platform';
import { keepInboxEvent, type InboxEventKey } from '../../domain/inbox/keep-inbox-event.use-case';
import type { InboxEventLog } from '../../domain/ports/inbox-events.port';

export const INBOX_EVENTS_QUEUE = 'gateway.inbox-events' satisfies ConsumerQueueName;

/**
 * Messaging's conversation events into the tenants' inbox streams: one durable queue for every gateway replica
 * (each event is kept once, by the replica consuming; every replica's browsers read it).
 */
export async function registerInboxEventConsumer(
  amqp: AmqpClient,
  deps: { inboxEvents: InboxEventLog },
): Promise<void> {
  const keys = Object.keys(INBOX_STREAM_EVENTS) as InboxEventKey[];
  await amqp.consume(
    INBOX_EVENTS_QUEUE,
    keys,
    async (message) => {
      const key = message.routingKey as InboxEventKey;
      if (!keys.includes(key)) return;
      const schema = DOMAIN_EVENT_SCHEMAS[key] as Joi.Schema<Parameters<typeof keepInboxEvent>[2]>;
      await keepInboxEvent(deps, key, validate(schema, message.payload));
    },
    // One replica appends at a time, in the queue's order, and its appends go over one Redis connection in the
    // order they are called: a tenant's stream keeps the order messaging published the events in (a failed
    // attempt's retry aside), where competing replicas would interleave them. The others stand by and take over.
    { ...retryPolicyOf(INBOX_EVENTS_QUEUE), singleActiveConsumer: true },
  );
}
