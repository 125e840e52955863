import type Joi from 'joi';
import { DOMAIN_EVENT_SCHEMAS, type DomainEventKey, type DomainEventPayloads } from '@bm/contracts';
import { validate, type ConsumedMessage } from '@bm/platform';

/** The use case for each routing key a queue binds (the consumed message beside the payload, for its delivery). */
export type Handlers = {
  [K in DomainEventKey]?: (payload: DomainEventPayloads[K], message: ConsumedMessage) => Promise<unknown>;
};

/** Validates a consumed event with its contract schema and calls the use case for its routing key. */
export function dispatch(handlers: Handlers) {
  return async (message: ConsumedMessage): Promise<void> => {
    const key = message.routingKey as DomainEventKey;
    const handler = handlers[key] as
      ((payload: unknown, message: ConsumedMessage) => Promise<unknown>) | undefined;
    if (!handler) return;
    await handler(validate(DOMAIN_EVENT_SCHEMAS[key] as Joi.Schema, message.payload), message);
  };
}
