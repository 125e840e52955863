import type { EntityManager } from 'typeorm';
import { outboxInsertSql, queryRows } from '@bm/platform';
import { INGRESS_SCHEMA } from './data-source';
import {
  itemMessage,
  type OutgoingItem,
  type PublishedItem,
  type PublishedItemStore,
} from '../domain/ingress-ports';

// Bounds the size of one statement's JSON parameter on a body that batches thousands of items.
export const ITEMS_PER_STATEMENT = 2_000;

/** The rows of the items' JSON parameter of `publishItemsCtes`, numbered from `start` (the outbox's order). */
export function publishedItemRows(items: OutgoingItem[], start = 0) {
  return items.map((outgoing, i) => ({
    ord: start + i,
    inbound_event_id: outgoing.inboundEventId,
    dedupe_key: outgoing.item.dedupeKey,
    item_event_id: outgoing.item.payload.event_id,
    routing_key: outgoing.item.routingKey,
    phone_number_id: outgoing.item.payload.phone_number_id,
    tenant_id: outgoing.tenantId,
    payload: itemMessage(outgoing),
  }));
}

/**
 * The CTEs (input, fresh, queued) that record each item of the JSON parameter `param` under its dedupe key and
 * write the outbox row of those that were new: an item seen before (another delivery, a concurrent one, a
 * reprocess) loses the insert and gets no outbox row. `fresh` returns the new items' dedupe keys and deliveries,
 * `queued` their outbox message ids. The dedupe keys of the rows must differ: the outbox rows join on them.
 */
export function publishItemsCtes(param: string): string {
  return `input AS (
           SELECT * FROM jsonb_to_recordset(${param}::jsonb) AS i(ord integer, inbound_event_id text, dedupe_key text,
             item_event_id text, routing_key text, phone_number_id text, tenant_id integer, payload jsonb)
         ), fresh AS (
           INSERT INTO ingress.published_items
             (dedupe_key, item_event_id, routing_key, inbound_event_id, phone_number_id, tenant_id)
           SELECT dedupe_key, item_event_id, routing_key, inbound_event_id, phone_number_id, tenant_id FROM input
           ORDER BY dedupe_key -- one lock order for overlapping bodies split at once: no deadlock
           ON CONFLICT (dedupe_key) DO NOTHING
           RETURNING dedupe_key, inbound_event_id
         ), queued AS (
           ${outboxInsertSql(
             INGRESS_SCHEMA,
             `SELECT i.item_event_id, i.routing_key, i.payload, '{}'::jsonb FROM input i JOIN fresh f USING (dedupe_key)
              ORDER BY i.ord`,
           )}
           RETURNING message_id
         )`;
}

/** The items that went out, one row per dedupe key, and their outbox rows. */
export class PublishedItemRepository implements PublishedItemStore {
  /**
   * Records each item under its dedupe key and writes the outbox row of those that were new (publishItemsCtes),
   * in one statement per chunk and inside the caller's transaction. Answers the event ids of the new items. The
   * dedupe keys of `items` must differ (the caller keeps the first of a key).
   *
   * It writes the platform's outbox table itself, rather than one `enqueueEvent` round trip per item, because a
   * 3 MB body holds thousands of items.
   */
  async publish(tx: EntityManager, items: OutgoingItem[]): Promise<Set<string>> {
    if (!tx.queryRunner?.isTransactionActive) throw new Error('publish must run inside a transaction');
    const fresh = new Set<string>();
    for (let start = 0; start < items.length; start += ITEMS_PER_STATEMENT) {
      const rows = publishedItemRows(items.slice(start, start + ITEMS_PER_STATEMENT), start);
      const inserted = await queryRows<{ message_id: string }>(
        tx,
        `WITH ${publishItemsCtes('$1')} SELECT message_id FROM queued`,
        [JSON.stringify(rows)],
      );
      for (const row of inserted) fresh.add(row.message_id);
    }
    return fresh;
  }

  /** Which of these items went out already, and with which delivery. */
  async findByKeys(db: Pick<EntityManager, 'query'>, keys: string[]): Promise<Map<string, PublishedItem>> {
    const rows = await queryRows<{ dedupe_key: string; item_event_id: string; inbound_event_id: string }>(
      db,
      `SELECT dedupe_key, item_event_id, inbound_event_id FROM ingress.published_items
       WHERE dedupe_key = ANY($1::text[])`,
      [keys],
    );
    return new Map(
      rows.map((r) => [
        r.dedupe_key,
        { dedupeKey: r.dedupe_key, itemEventId: r.item_event_id, inboundEventId: r.inbound_event_id },
      ]),
    );
  }
}
