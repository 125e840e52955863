import type { DataSource, EntityManager } from 'typeorm';
import type { InboundSigningSecret, InboundSkippedPart } from '@bm/contracts';
import { GroupCommit, queryRows, storableText, type Logger } from '@bm/platform';
import type {
  InboundEvent,
  InboundEventStore,
  InboundEventWithBody,
  NewInboundEvent,
  Outcome,
  PendingBody,
  SplitSummary,
} from '../domain/inbound-event';
import { insertInboundEvents, type SizedInboundEvent } from './inbound-event-writer';

const SUMMARY_COLUMNS = `id, received_at, request_id, body_sha256, body_bytes, signed_with, outcome, item_count,
  published_count, duplicate_count, unroutable_count, skipped_count, unroutable_phone_number_ids, skipped_items,
  attempts, last_error, processed_at, sent_items`;

interface Row {
  id: string;
  received_at: Date;
  request_id: string | null;
  body_sha256: string;
  body_bytes: number;
  signed_with: InboundSigningSecret;
  outcome: Outcome;
  item_count: number;
  published_count: number;
  duplicate_count: number;
  unroutable_count: number;
  skipped_count: number;
  unroutable_phone_number_ids: string[];
  skipped_items: InboundSkippedPart[];
  attempts: number;
  last_error: string | null;
  processed_at: Date | null;
  sent_items: Record<string, string> | null;
  raw_body?: string;
  headers?: Record<string, string | string[]>;
}

const toEvent = (r: Row): InboundEvent => ({
  id: r.id,
  receivedAt: r.received_at,
  requestId: r.request_id,
  bodySha256: r.body_sha256,
  bodyBytes: r.body_bytes,
  signedWith: r.signed_with,
  outcome: r.outcome,
  itemCount: r.item_count,
  publishedCount: r.published_count,
  duplicateCount: r.duplicate_count,
  unroutableCount: r.unroutable_count,
  skippedCount: r.skipped_count,
  unroutablePhoneNumberIds: r.unroutable_phone_number_ids,
  skippedItems: r.skipped_items,
  attempts: r.attempts,
  lastError: r.last_error,
  processedAt: r.processed_at,
  sentItems: r.sent_items,
});

/** The audit log of verified deliveries. */
export class InboundEventRepository implements InboundEventStore {
  /**
   * Group commit of the audit log: deliveries that arrive while earlier ones are on their way to PostgreSQL are
   * inserted together, so one commit (and WAL flush) serves many 200s. Bodies reach 3 MB: a statement carries a
   * few of those at most. Bodies split on receipt go out with their items in the same statement.
   */
  readonly inserts: GroupCommit<SizedInboundEvent, boolean>;

  constructor(
    private readonly dataSource: DataSource,
    logger?: Logger,
  ) {
    this.inserts = new GroupCommit((batch) => insertInboundEvents(dataSource, batch, logger), {
      name: 'inbound event inserts',
      logger,
      maxBatch: 200,
      maxWeight: 8 * 1024 * 1024,
      weigh: (e) => e.bytes,
      concurrency: 2,
    });
  }

  /**
   * Resolves once the row is committed (durable); concurrent deliveries share one statement and commit. Answers
   * whether the delivery's split went out in that commit.
   */
  insert(e: NewInboundEvent): Promise<boolean> {
    return this.inserts.submit({ event: e, bytes: Buffer.byteLength(e.rawBody) });
  }

  async findWithBody(id: string): Promise<InboundEventWithBody | undefined> {
    const [row] = await queryRows<Row>(
      this.dataSource,
      `SELECT ${SUMMARY_COLUMNS}, raw_body, headers FROM ingress.inbound_events WHERE id = $1`,
      [id],
    );
    return row ? { ...toEvent(row), rawBody: row.raw_body ?? '', headers: row.headers ?? {} } : undefined;
  }

  async find(id: string): Promise<InboundEvent | undefined> {
    const [row] = await queryRows<Row>(
      this.dataSource,
      `SELECT ${SUMMARY_COLUMNS} FROM ingress.inbound_events WHERE id = $1`,
      [id],
    );
    return row ? toEvent(row) : undefined;
  }

  /** Newest first, optionally of one outcome. */
  async list(outcome: Outcome | undefined, page: number, perPage: number) {
    const where = outcome === undefined ? '' : 'WHERE outcome = $1';
    const params = outcome === undefined ? [] : [outcome];
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM ingress.inbound_events ${where}`,
      params,
    );
    const rows = await queryRows<Row>(
      this.dataSource,
      `SELECT ${SUMMARY_COLUMNS} FROM ingress.inbound_events ${where}
       ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, perPage, (page - 1) * perPage],
    );
    return { items: rows.map(toEvent), total };
  }

  /** Other deliveries of the very same body (the upstream retries), newest first. */
  async sameBody(bodySha256: string, exceptId: string): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM ingress.inbound_events WHERE body_sha256 = $1 AND id <> $2 ORDER BY id DESC LIMIT 50`,
      [bodySha256, exceptId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Due events with their bodies, oldest first: up to `limit` of them and about `maxBytes` of body (always at
   * least one), so a run of 3 MB bodies is not read all at once. One statement: the running total of the sizes
   * picks the rows whose bodies are read.
   */
  async dueWithBodies(limit: number, maxBytes: number): Promise<PendingBody[]> {
    const rows = await queryRows<{ id: string; received_at: Date; raw_body: string }>(
      this.dataSource,
      `SELECT id, received_at, raw_body FROM (
         SELECT id, received_at, raw_body, next_attempt_at,
           sum(body_bytes) OVER w AS upto, row_number() OVER w AS n
         FROM (SELECT id, received_at, raw_body, body_bytes, next_attempt_at FROM ingress.inbound_events
               WHERE outcome = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1) AS due
         WINDOW w AS (ORDER BY next_attempt_at ROWS UNBOUNDED PRECEDING)
       ) AS sized
       WHERE n = 1 OR upto <= $2
       ORDER BY n`,
      [limit, maxBytes],
    );
    return rows.map((r) => ({ id: r.id, receivedAt: r.received_at, rawBody: r.raw_body }));
  }

  /** The earliest future retry time of a stored event waiting to be split, if any (one index lookup). */
  async nextDueAt(): Promise<Date | undefined> {
    const [row] = await queryRows<{ at: Date | null }>(
      this.dataSource,
      `SELECT min(next_attempt_at) AS at FROM ingress.inbound_events
        WHERE outcome = 'pending' AND next_attempt_at > now()`,
    );
    return row?.at ?? undefined;
  }

  /** Locks those of the events still pending, skipping any another worker holds; answers the locked ids. */
  async lockPending(tx: EntityManager, ids: string[]): Promise<Set<string>> {
    const rows = await queryRows<{ id: string }>(
      tx,
      `SELECT id FROM ingress.inbound_events WHERE id = ANY($1::text[]) AND outcome = 'pending'
       ORDER BY id FOR UPDATE SKIP LOCKED`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Locks the event for splitting; with skipLocked, answers undefined while another worker holds it. */
  async lock(tx: EntityManager, id: string, skipLocked: boolean): Promise<{ outcome: Outcome } | undefined> {
    const [row] = await queryRows<{ outcome: Outcome }>(
      tx,
      `SELECT outcome FROM ingress.inbound_events WHERE id = $1 FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
      [id],
    );
    return row;
  }

  async finish(tx: EntityManager, id: string, s: SplitSummary): Promise<void> {
    await this.finishMany(tx, [{ id, ...s }]);
  }

  /** Records what splitting did to each event, in one statement. */
  async finishMany(tx: EntityManager, summaries: Array<SplitSummary & { id: string }>): Promise<void> {
    if (summaries.length === 0) return;
    await tx.query(
      `UPDATE ingress.inbound_events e SET outcome = s.outcome, item_count = s.item_count,
         published_count = s.published_count, duplicate_count = s.duplicate_count,
         unroutable_count = s.unroutable_count, skipped_count = s.skipped_count,
         unroutable_phone_number_ids = ARRAY(SELECT jsonb_array_elements_text(s.unroutable)),
         skipped_items = s.skipped_items, attempts = e.attempts + 1, last_error = NULL, processed_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS s(id text, outcome text, item_count integer,
         published_count integer, duplicate_count integer, unroutable_count integer, skipped_count integer,
         unroutable jsonb, skipped_items jsonb)
       WHERE e.id = s.id`,
      [
        JSON.stringify(
          summaries.map((s) => ({
            id: s.id,
            outcome: s.outcome,
            item_count: s.itemCount,
            published_count: s.publishedCount,
            duplicate_count: s.duplicateCount,
            unroutable_count: s.unroutableCount,
            skipped_count: s.skippedCount,
            unroutable: s.unroutablePhoneNumberIds,
            skipped_items: s.skippedItems,
          })),
        ),
      ],
    );
  }

  async countFailed(): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      this.dataSource,
      `SELECT count(*)::int AS count FROM ingress.inbound_events WHERE outcome = 'failed'`,
    );
    return row.count;
  }

  /**
   * A failed split of a pending event is retried later, backing off up to five minutes. A failure that will not
   * change on retry (`permanent`) counts toward `failAfter`: at that count the event becomes `failed` and is no
   * longer tried. Answers the event's outcome after the update (undefined when it was no longer pending).
   */
  async recordFailure(
    id: string,
    error: string,
    permanent: boolean,
    failAfter: number,
  ): Promise<Outcome | undefined> {
    const [row] = await queryRows<{ outcome: Outcome }>(
      this.dataSource,
      `UPDATE ingress.inbound_events SET attempts = attempts + 1, last_error = $2,
         permanent_failures = permanent_failures + CASE WHEN $3::boolean THEN 1 ELSE 0 END,
         outcome = CASE WHEN $3::boolean AND permanent_failures + 1 >= $4 THEN 'failed' ELSE outcome END,
         processed_at = CASE WHEN $3::boolean AND permanent_failures + 1 >= $4 THEN now() ELSE processed_at END,
         next_attempt_at = now() + least(interval '5 minutes', interval '1 second' * power(2, attempts))
       WHERE id = $1 AND outcome = 'pending'
       RETURNING outcome`,
      [id, storableText(error.slice(0, 1000)), permanent, failAfter],
    );
    return row?.outcome;
  }
}
