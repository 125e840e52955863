import type { DataSource } from 'typeorm';
import { prepared, type Logger } from '@bm/platform';
import type { NewInboundEvent } from '../domain/inbound-event';
import type { OutgoingItem } from '../domain/ingress-ports';
import { ITEMS_PER_STATEMENT, publishItemsCtes, publishedItemRows } from './published-item.repository';

/** A delivery to store, with its body's size in bytes (stored, and bounding the statement's size). */
export interface SizedInboundEvent {
  event: NewInboundEvent;
  bytes: number;
}

const COLUMNS = `id, received_at, request_id, body_sha256, body_bytes, raw_body, headers, signed_with`;
const OUTCOME_COLUMNS = `outcome, item_count, published_count, duplicate_count, skipped_count, attempts, sent_items`;
const ARRAYS = `$1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[], $8::text[],
  $9::text[], $10::int[], $11::int[], $12::int[], $13::int[], $14::int[], $15::jsonb[]`;

/**
 * How a delivery is stored: `pending` for the splitter; `sent`, its items split on receipt and already confirmed
 * by the broker, with its outcome; `outbox`, split on receipt, its items going out through the outbox in the
 * same statement (the outcome then depends on which of them are new: publishItemsCtes).
 */
type Storage = 'pending' | 'sent' | 'outbox';

/** The row's values in the order of COLUMNS and OUTCOME_COLUMNS; the outcome and counts an outbox row gets in SQL. */
function rowValues({ event: e, bytes }: SizedInboundEvent, storage: Storage): unknown[] {
  const split = e.split;
  const items = storage === 'pending' ? 0 : (split?.items.length ?? 0);
  const outcome =
    storage === 'pending' ? 'pending' : storage === 'outbox' ? null : items ? 'processed' : 'ignored';
  const published = storage === 'outbox' ? null : items;
  const sentItems =
    storage === 'sent' && split
      ? JSON.stringify(
          Object.fromEntries(split.items.map(({ item }) => [item.dedupeKey, item.payload.event_id])),
        )
      : null;
  return [
    e.id,
    e.receivedAt,
    e.requestId,
    e.bodySha256,
    bytes,
    e.rawBody,
    JSON.stringify(e.headers),
    e.signedWith,
    outcome,
    items,
    published,
    storage === 'outbox' ? null : 0,
    storage === 'pending' ? 0 : (split?.skippedCount ?? 0),
    storage === 'pending' ? 0 : 1,
    sentItems,
  ];
}

/** A lone delivery stored with plain values: the common case of a receipt at a time. */
const INSERT_ONE = prepared(`INSERT INTO ingress.inbound_events (${COLUMNS}, ${OUTCOME_COLUMNS}, processed_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14, $15::jsonb,
    CASE WHEN $14::int > 0 THEN now() END)`);

/**
 * One statement stores the deliveries. With `$16`, the items of the `outbox` ones go out in it too
 * (publishItemsCtes): their audit rows get their outcome at once, as finishMany would record it (no published
 * item: `duplicate`; no item: `ignored`). It saves the splitter's round of reading the bodies back, locking them
 * and rewriting each row with its outcome. A dedupe key two deliveries share goes out with the first, as when the
 * splitter takes them in one batch.
 */
const insertMany = (withItems: boolean) => `${withItems ? `WITH ${publishItemsCtes('$16')}` : ''}
  INSERT INTO ingress.inbound_events (${COLUMNS}, ${OUTCOME_COLUMNS}, processed_at)
  SELECT e.id, e.received_at, e.request_id, e.body_sha256, e.body_bytes, e.raw_body, e.headers, e.signed_with,
    coalesce(e.outcome, CASE WHEN e.item_count = 0 THEN 'ignored'
      WHEN coalesce(f.n, 0) = 0 THEN 'duplicate' ELSE 'processed' END),
    e.item_count, coalesce(e.published_count, f.n, 0), coalesce(e.duplicate_count, e.item_count - coalesce(f.n, 0)),
    e.skipped_count, e.attempts, e.sent_items, CASE WHEN e.attempts > 0 THEN now() END
  FROM unnest(${ARRAYS}) AS e(${COLUMNS}, ${OUTCOME_COLUMNS})
  LEFT JOIN ${
    withItems
      ? '(SELECT inbound_event_id, count(*)::int AS n FROM fresh GROUP BY inbound_event_id)'
      : '(SELECT NULL::text AS inbound_event_id, NULL::int AS n WHERE false)'
  } AS f ON f.inbound_event_id = e.id`;
// The hot path's statements (a webhook or a linger window's webhooks), prepared per connection.
const INSERT_MANY = prepared(insertMany(false));
const INSERT_MANY_WITH_ITEMS = insertMany(true);

/** Inserts the deliveries as `storage` says, in one statement. */
async function insertRows(
  db: DataSource,
  batch: SizedInboundEvent[],
  storage: Storage[],
  outgoing: OutgoingItem[],
): Promise<void> {
  const rows = batch.map((p, i) => rowValues(p, storage[i]));
  if (rows.length === 1 && outgoing.length === 0) {
    await db.query(INSERT_ONE, rows[0]);
    return;
  }
  const columns = rows[0].map((_, c) => rows.map((r) => r[c]));
  if (outgoing.length === 0) await db.query(INSERT_MANY, columns);
  else await db.query(INSERT_MANY_WITH_ITEMS, [...columns, JSON.stringify(publishedItemRows(outgoing))]);
}

/**
 * Inserts the deliveries in one statement and commit; those split on receipt are stored with their outcome, the
 * items of those not sent already going out through the outbox in it (up to ITEMS_PER_STATEMENT items: the rest
 * stay pending). When that statement fails (an item the database refuses, a lock conflict with the splitter), the
 * deliveries whose items were not sent are stored `pending` instead, so one bad item never fails the others'
 * 200s: the splitter isolates it. Answers, per delivery, whether it was split here.
 */
export async function insertInboundEvents(
  db: DataSource,
  batch: SizedInboundEvent[],
  logger?: Logger,
): Promise<boolean[]> {
  const outgoing: OutgoingItem[] = [];
  const keys = new Set<string>();
  const storage = batch.map(({ event }): Storage => {
    const split = event.split;
    // Nothing to publish is as good as sent.
    if (split?.sent || split?.items.length === 0) return 'sent';
    if (split === undefined || outgoing.length + split.items.length > ITEMS_PER_STATEMENT) return 'pending';
    for (const { item, tenantId } of split.items) {
      if (keys.has(item.dedupeKey)) continue;
      keys.add(item.dedupeKey);
      outgoing.push({ item, tenantId, inboundEventId: event.id });
    }
    return 'outbox';
  });
  if (!storage.includes('outbox')) {
    await insertRows(db, batch, storage, []);
    return storage.map((s) => s === 'sent');
  }
  try {
    await insertRows(db, batch, storage, outgoing);
    return storage.map((s) => s !== 'pending');
  } catch (err) {
    logger?.warn('inbound events not split on receipt, stored pending for the splitter', {
      events: batch.length,
      error: (err as Error).message,
    });
  }
  const fallback = storage.map((s): Storage => (s === 'sent' ? 'sent' : 'pending'));
  await insertRows(db, batch, fallback, []);
  return fallback.map((s) => s === 'sent');
}
