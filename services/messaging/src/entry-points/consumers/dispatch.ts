import type Joi from 'joi';
import { DOMAIN_EVENT_SCHEMAS, type DomainEventKey, type DomainEventPayloads } from '@bm/contracts';
import { AppError, isTransientFailure, validate, type ConsumedMessage } from '@bm/platform';

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

/**
 * Applies each of a batch message's `count` items on its own (`apply(i)`, which checks the item with its own schema).
 * When some item is invalid or fails, the others are applied first and the batch then fails as a whole, to be
 * delivered again by the retry policy: its applied items change nothing the second time, so only the bad ones can
 * end in the dead-letter queue, with the batch around them. An outage stays an outage (the consumer waits it out).
 */
export async function eachOfBatch(
  what: string,
  count: number,
  apply: (index: number) => Promise<unknown>,
): Promise<void> {
  const results = await Promise.allSettled(
    // async: an item that fails validation is a rejected promise among the others, not a throw that stops them.
    Array.from({ length: count }, async (_, i) => apply(i)),
  );
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ index: i, reason: r.reason as unknown }] : [],
  );
  if (failures.length === 0) return;
  const transient = failures.find((f) => isTransientFailure(f.reason));
  if (transient) throw transient.reason;
  const first = failures[0];
  throw new AppError(
    (first.reason as { code?: string }).code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
    `${failures.length} of ${count} ${what} failed (item ${first.index}: ${(first.reason as Error).message})`,
  );
}
