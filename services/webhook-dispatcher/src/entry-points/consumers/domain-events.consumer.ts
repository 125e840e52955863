import type Joi from 'joi';
import {
  DIRECT_STATUS_ROUTING_KEY,
  DOMAIN_EVENT_SCHEMAS,
  DOMAIN_EVENTS,
  domainEventOf,
  messageStatusesBatchSchema,
  messageStatusUpdatedSchema,
  retryPolicyOf,
  type ConsumerQueueName,
} from '@bm/contracts';
import { eachOfBatch, runInTrace, validate, type AmqpClient } from '@bm/platform';
import type { DispatcherDeps } from '../../domain/dispatcher-deps';
import { recordDomainEvent } from '../../domain/record-domain-event.use-case';
import { DELIVERABLE_DOMAIN_EVENTS, type DeliverableDomainEvent } from '../../domain/webhook-event';

export const DISPATCHER_QUEUE = 'dispatcher.events' satisfies ConsumerQueueName;

/**
 * One durable queue bound to every event that becomes a webhook. The handler only stores the event and its
 * delivery (ack after commit); the HTTP delivery runs in the worker, so a slow endpoint never holds the queue.
 */
export async function registerConsumers(amqp: AmqpClient, deps: DispatcherDeps): Promise<void> {
  await amqp.consume(
    DISPATCHER_QUEUE,
    // Status events come under two keys (DIRECT_STATUS_ROUTING_KEY: of no campaign recipient), and in batches.
    [...DELIVERABLE_DOMAIN_EVENTS, DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS.messageStatusesUpdated],
    async (message) => {
      if (message.routingKey === DOMAIN_EVENTS.messageStatusesUpdated) {
        // Each event of the batch checked and recorded on its own, in the trace of its send; the event store's
        // group commit writes them together.
        const { events, event_id } = validate(messageStatusesBatchSchema, message.payload);
        await eachOfBatch(`status events of batch ${event_id}`, events.length, (i) =>
          runInTrace(events[i].traceparent, () =>
            recordDomainEvent(
              deps,
              DOMAIN_EVENTS.messageStatusUpdated,
              validate(messageStatusUpdatedSchema, events[i].event),
            ),
          ),
        );
        return;
      }
      const event = domainEventOf(message.routingKey) as DeliverableDomainEvent;
      if (!DELIVERABLE_DOMAIN_EVENTS.includes(event)) return;
      const payload: unknown = validate(DOMAIN_EVENT_SCHEMAS[event] as Joi.Schema, message.payload);
      await recordDomainEvent(deps, event, payload as never);
    },
    { ...retryPolicyOf(DISPATCHER_QUEUE), prefetch: deps.config.DISPATCHER_CONSUMER_PREFETCH },
  );
}
