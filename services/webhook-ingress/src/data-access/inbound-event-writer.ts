import type { DataSource } from 'typeorm';
import type { Logger } from '@bm/platform';
import type { NewInboundEvent } from '../domain/inbound-event';
import type { OutgoingItem } from '../domain/ingress-ports';
import { ITEMS_PER_STATEMENT, publishItemsCtes, publishedItemRows } from './published-item.repository';

/** A delivery to store, with its body's size in bytes (stored, and bounding the statement's size). */
export interface SizedInboundEvent {
  event: NewInboundEvent;
  bytes: number;
}

const COLUMNS = `id, received_at, request_id, body_sha256, body_bytes, raw_body, headers, signed_with`;
const INSERT = `INSERT INTO ingress.inbound_events (${COLUMNS})`;
const ROWS = `unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[],
  $8::text[])`;

const eventColumns = (batch: SizedInboundEvent[]) => {
  const column = <T>(f: (p: SizedInboundEvent) => T) => batch.map(f);
  return [
    column((p) => p.event.id),
    column((p) => p.event.receivedAt),
    column((p) => p.event.requestId),
    column((p) => p.event.bodySha256),
    column((p) => p.bytes),
    column((p) => p.event.rawBody),
    column((p) => JSON.stringify(p.event.headers)),
    column((p) => p.event.signedWith),
  ];
};

/** Inserts the deliveries, all `pending`, in one statement (a lone one with plain values). */
async function insertPending(db: DataSource, batch: SizedInboundEvent[]): Promise<void> {
  if (batch.length === 1) {
    const [{ event: e, bytes }] = batch;
    await db.query(`${INSERT} VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`, [
      e.id,
      e.receivedAt,
      e.requestId,
      e.bodySha256,
      bytes,
      e.rawBody,
      JSON.stringify(e.headers),
      e.signedWith,
    ]);
    return;
  }
  await db.query(`${INSERT} SELECT * FROM ${ROWS}`, eventColumns(batch));
}

/**
 * One statement stores the deliveries and publishes the items of those split on receipt (publishItemsCtes):
 * their audit rows get their outcome at once, as finishMany would record it (no published item: `duplicate`; no
 * item: `ignored`), while the others stay `pending` for the splitter. It saves the splitter's round of reading
 * the bodies back, locking them and rewriting each row with its outcome. A dedupe key two deliveries share goes
 * out with the first, as when the splitter takes them in one batch.
 */
const INSERT_SPLIT = `WITH ${publishItemsCtes('$12')}
  INSERT INTO ingress.inbound_events (${COLUMNS}, outcome, item_count, published_count, duplicate_count,
    skipped_count, attempts, processed_at)
  SELECT e.id, e.received_at, e.request_id, e.body_sha256, e.body_bytes, e.raw_body, e.headers, e.signed_with,
    CASE WHEN NOT e.split THEN 'pending' WHEN e.item_count = 0 THEN 'ignored'
      WHEN coalesce(f.n, 0) = 0 THEN 'duplicate' ELSE 'processed' END,
    e.item_count, coalesce(f.n, 0), e.item_count - coalesce(f.n, 0), e.skipped_count,
    CASE WHEN e.split THEN 1 ELSE 0 END, CASE WHEN e.split THEN now() END
  FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[],
    $8::text[], $9::boolean[], $10::int[], $11::int[])
    AS e(${COLUMNS}, split, item_count, skipped_count)
  LEFT JOIN (SELECT inbound_event_id, count(*)::int AS n FROM fresh GROUP BY inbound_event_id) AS f
    ON f.inbound_event_id = e.id`;

/**
 * Inserts the deliveries in one statement and commit; those split on receipt go out with their items in it
 * (up to ITEMS_PER_STATEMENT items: the rest stay pending). When that statement fails (an item the database
 * refuses, a lock conflict with the splitter), the deliveries are stored `pending` instead, so one bad item
 * never fails the others' 200s: the splitter isolates it. Answers, per delivery, whether it was split here.
 */
export async function insertInboundEvents(
  db: DataSource,
  batch: SizedInboundEvent[],
  logger?: Logger,
): Promise<boolean[]> {
  const split: boolean[] = [];
  const outgoing: OutgoingItem[] = [];
  const keys = new Set<string>();
  for (const { event } of batch) {
    const items = event.split?.items ?? [];
    const fits = event.split !== undefined && outgoing.length + items.length <= ITEMS_PER_STATEMENT;
    split.push(fits);
    if (!fits) continue;
    for (const { item, tenantId } of items) {
      if (keys.has(item.dedupeKey)) continue;
      keys.add(item.dedupeKey);
      outgoing.push({ item, tenantId, inboundEventId: event.id });
    }
  }
  if (!split.includes(true)) {
    await insertPending(db, batch);
    return split;
  }
  try {
    await db.query(INSERT_SPLIT, [
      ...eventColumns(batch),
      split,
      batch.map((p, i) => (split[i] ? (p.event.split?.items.length ?? 0) : 0)),
      batch.map((p, i) => (split[i] ? (p.event.split?.skippedCount ?? 0) : 0)),
      JSON.stringify(publishedItemRows(outgoing)),
    ]);
    return split;
  } catch (err) {
    logger?.warn('inbound events not split on receipt, stored pending for the splitter', {
      events: batch.length,
      error: (err as Error).message,
    });
  }
  await insertPending(db, batch);
  return batch.map(() => false);
}
