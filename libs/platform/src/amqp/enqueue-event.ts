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
  return (await enqueueEvents(tx, schema, [event]))[0];
}

/** Writes many events in one statement (a campaign's batch of send commands); returns their messageIds. */
export async function enqueueEvents(
  tx: EntityManager,
  schema: string,
  events: readonly OutboxEvent[],
): Promise<string[]> {
  // Outside a transaction the event could be published for a change that later rolls back.
  if (!tx.queryRunner?.isTransactionActive) throw new Error('enqueueEvent must run inside a transaction');
  if (events.length === 0) return [];
  const messageIds = events.map((event) => event.messageId ?? newUlid());
  await tx.query(
    outboxInsertSql(schema, 'SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::jsonb[])'),
    // Stringified by hand: pg would turn a top-level array into a Postgres array literal.
    [
      messageIds,
      events.map((event) => event.routingKey),
      events.map((event) => JSON.stringify(event.payload)),
      events.map((event) => JSON.stringify(withTraceparent(event.headers))),
    ],
  );
  return messageIds;
}

/**
 * The outbox INSERT for a statement that writes a state change and its events together (a CTE), where a round
 * trip per event is what the statement saves: `rows` is a query yielding message_id, routing_key, payload and
 * headers (jsonb), in that order. Anything else writes through enqueueEvent, which also adds the traceparent.
 */
export function outboxInsertSql(schema: string, rows: string): string {
  return `INSERT INTO ${quoteSchema(schema)}.outbox (message_id, routing_key, payload, headers) ${rows}`;
}
