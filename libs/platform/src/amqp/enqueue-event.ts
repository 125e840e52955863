import type { EntityManager } from 'typeorm';
import { newUlid } from '../ids';
import { withTraceparent } from '../tracing/trace-context';
import { quoteSchema } from './outbox.migration';

/** An event to publish once the surrounding transaction commits. */
export interface OutboxEvent {
  routingKey: string;
  payload: object;
  /** Defaults to a new ULID; pass one to make a retried use case produce the same event id. */
  messageId?: string;
  headers?: Record<string, unknown>;
}

/**
 * Writes the event to `${schema}.outbox` inside the caller's transaction, with the current trace's `traceparent`
 * in its headers; returns its messageId.
 */
export async function enqueueEvent(tx: EntityManager, schema: string, event: OutboxEvent): Promise<string> {
  // Outside a transaction the event could be published for a change that later rolls back.
  if (!tx.queryRunner?.isTransactionActive) throw new Error('enqueueEvent must run inside a transaction');
  const messageId = event.messageId ?? newUlid();
  await tx.query(
    `INSERT INTO ${quoteSchema(schema)}.outbox (message_id, routing_key, payload, headers)
     VALUES ($1, $2, $3::jsonb, $4::jsonb)`,
    // Stringified by hand: pg would turn a top-level array into a Postgres array literal.
    [
      messageId,
      event.routingKey,
      JSON.stringify(event.payload),
      JSON.stringify(withTraceparent(event.headers)),
    ],
  );
  return messageId;
}
