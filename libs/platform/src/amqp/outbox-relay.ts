import type { DataSource } from 'typeorm';
import type { PgListener } from '../db/pg-listener';
import { outboxChannel, WakeGate } from '../db/wake-gate';
import type { Logger } from '../logger';
import { PeriodicTask } from '../periodic-task';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { EventPublisher, PublishOptions } from './amqp.types';
import { queryRows } from '../db/data-source';
import { quoteSchema } from './outbox.migration';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  /** The service's schema, which holds its `outbox` table. */
  schema: string;
  amqp: EventPublisher;
  logger: Logger;
  /** Pause between passes that found less than a full batch (default 200 ms). */
  intervalMs?: number;
  /**
   * Woken by the notifications of the outbox's wake trigger (`createOutboxWakeTrigger`) instead of polling once a
   * pass finds nothing; without it the relay polls every `intervalMs`.
   */
  listener?: PgListener;
  /** Safety poll while idle (default 5 s with a listener, else `intervalMs`). */
  idlePollMs?: number;
  /** Rows taken per pass (default 100). */
  batchSize?: number;
  /** Published rows older than this are deleted (default 24 h). */
  retentionHours?: number;
  /** How often the cleanup runs while it keeps up (default 10 min). */
  cleanupIntervalMs?: number;
  /** Rows one cleanup statement deletes (default 10,000); a pass deletes batches until one is short. */
  cleanupBatchSize?: number;
  /** Reports `bm_outbox_backlog{schema}` (rows not yet published) while the relay runs. */
  metrics?: ServiceMetrics;
}

// A cleanup pass stops starting batches after this long, so that a backlog of expired rows never holds publishing
// up for long; while behind, the next pass comes CLEANUP_BEHIND_PAUSE_MS later instead of an interval later.
const CLEANUP_PASS_BUDGET_MS = 100;
const CLEANUP_BEHIND_PAUSE_MS = 1_000;

interface OutboxRow {
  id: string;
  /** The writing transaction's id (xid8, as decimal text). */
  txid: string;
  message_id: string;
  routing_key: string;
  /** The stored jsonb as JSON text. */
  payload: string;
  headers: Record<string, unknown>;
  /** Whether every transaction as old as the row's has ended: no row can appear before it any more. */
  settled: boolean;
  /** Committed but not settled, and older than OUT_OF_ORDER_AFTER_MS: published without waiting any longer. */
  overdue: boolean;
  /** The oldest transaction still running (xid8), read with the rows. */
  xmin: string;
}

/** A place in the relay's order: (txid, id). */
interface Position {
  txid: bigint;
  id: bigint;
}

const after = (a: Position, b: Position) => a.txid > b.txid || (a.txid === b.txid && a.id > b.id);
const positionOf = (row: Pick<OutboxRow, 'txid' | 'id'>): Position => ({
  txid: BigInt(row.txid),
  id: BigInt(row.id),
});

/**
 * A committed row waits for the transactions older than its own to end (so that the cursor never passes a row
 * still to come) for at most this long; then it goes out ahead of them. A long transaction elsewhere in the
 * database (a large campaign list being prepared) delays no event by more than this.
 */
const OUT_OF_ORDER_AFTER_MS = 200;
/** Rows published ahead of the cursor that one relay remembers; past this many, rows wait for their turn. */
const MAX_AHEAD = 20_000;

/** Publishes a row's stored JSON as it is when the publisher takes JSON text, else parsed. */
function publishStored(amqp: EventPublisher, row: OutboxRow, options: PublishOptions): Promise<void> {
  return amqp.publishJson
    ? amqp.publishJson(row.routing_key, row.payload, options)
    : amqp.publish(row.routing_key, JSON.parse(row.payload) as object, options);
}

/**
 * Publishes committed outbox rows to RabbitMQ at least once, in the order of their transactions (txid, id),
 * keeping how far it got in `outbox_cursor` rather than marking each row: a row costs its insert alone. A
 * transaction's id is taken when it starts writing, and it may commit after younger ones: the cursor passes a row
 * only once every transaction as old as the row's has ended (PostgreSQL's snapshot xmin), so no row can appear
 * behind it. A committed row still waiting on an older transaction after OUT_OF_ORDER_AFTER_MS goes out ahead of
 * the cursor, and this relay remembers it until the cursor passes it.
 *
 * Safe with several replicas: a pass holds the cursor's row lock until the broker confirmed its publishes and the
 * cursor moved, and other relays skip their pass meanwhile. A crash (or a lost database) before the commit leaves
 * the cursor where it was, and the next pass publishes those rows again (consumers drop a repeated message id);
 * so does another replica for rows this one published ahead of the cursor.
 */
export class OutboxRelay {
  private readonly table: string;
  private readonly cursorTable: string;
  private readonly task: PeriodicTask;
  private running = false;
  private nextCleanupAt = 0;
  private stopReporting?: () => void;
  private readonly cleanupIntervalMs: number;
  /** Rows this relay published ahead of the cursor: their ids, and their positions. */
  private readonly ahead = new Map<string, Position>();
  /**
   * Whether the last pass left work that no new row will wake the relay for: rows waiting for older
   * transactions, rows out ahead of the cursor, or the cursor held by another relay's pass.
   */
  private waiting = false;

  constructor(private readonly o: OutboxRelayOptions) {
    this.table = `${quoteSchema(o.schema)}.outbox`;
    this.cursorTable = `${quoteSchema(o.schema)}.outbox_cursor`;
    this.cleanupIntervalMs = o.cleanupIntervalMs ?? 600_000;
    const intervalMs = o.intervalMs ?? 200;
    this.task = new PeriodicTask(`outbox relay ${o.schema}`, intervalMs, () => this.tick(), o.logger, {
      gate: o.listener && new WakeGate(o.listener, outboxChannel(o.schema)),
      idleIntervalMs: o.idlePollMs ?? (o.listener ? 5_000 : intervalMs),
    });
  }

  /** Starts relaying; a full batch is followed at once by the next pass. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.nextCleanupAt = Date.now() + this.cleanupIntervalMs;
    this.stopReporting = this.o.metrics?.sampledGauge(
      {
        name: 'bm_outbox_backlog',
        help: 'Committed events in the outbox not yet published to the broker, by schema',
        labelNames: ['schema'],
      },
      async () => [{ labels: { schema: this.o.schema }, value: await this.backlog() }],
    );
    this.task.start();
  }

  /** Stops relaying and waits for the pass in progress to commit. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopReporting?.();
    await this.task.stop();
  }

  /** One pass: publishes up to a batch of rows past the cursor and moves it; returns how many were published. */
  async relayOnce(): Promise<number> {
    // While the broker is away every publish would fail; skip the transaction and its row lock.
    if (!this.o.amqp.isConnected()) return 0;
    const batch = this.o.batchSize ?? 100;
    return this.o.dataSource.transaction(async (tx) => {
      // Held until the commit: another relay's pass skips, rather than publish the same rows meanwhile.
      const [cursor] = await queryRows<{ txid: string; id: string }>(
        tx,
        `SELECT txid::text AS txid, id FROM ${this.cursorTable} WHERE relay = 'relay' FOR UPDATE SKIP LOCKED`,
      );
      this.waiting = !cursor;
      if (!cursor) return 0;
      const from = positionOf(cursor);
      for (const [id, at] of this.ahead) if (!after(at, from)) this.ahead.delete(id);
      // The transaction ids and the xmin come from one statement's snapshot. Rows published ahead are left out,
      // so a long wait never fills the batch with them.
      const rows = await queryRows<OutboxRow>(
        tx,
        `SELECT id, txid::text AS txid, message_id, routing_key, payload::text AS payload, headers,
                txid < pg_snapshot_xmin(pg_current_snapshot()) AS settled,
                created_at < statement_timestamp() - $4::int * interval '1 millisecond' AS overdue,
                pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
           FROM ${this.table}
          WHERE (txid, id) > ($1::xid8, $2::bigint) AND NOT (id = ANY($5::bigint[]))
          ORDER BY txid, id LIMIT $3`,
        [cursor.txid, cursor.id, batch, OUT_OF_ORDER_AFTER_MS, [...this.ahead.keys()]],
      );
      const due = rows.filter((r) => r.settled || (r.overdue && this.ahead.size < MAX_AHEAD));
      if (rows.length === 0 && this.ahead.size === 0) return 0;
      const xmin =
        rows[0]?.xmin ??
        (
          await queryRows<{ xmin: string }>(
            tx,
            'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
          )
        )[0].xmin;
      // Issued back to back and confirmed together: one broker round trip per batch, not per row. The payload
      // goes out as the text PostgreSQL stored, never parsed and serialised again.
      const results = await Promise.allSettled(
        due.map((r) => publishStored(this.o.amqp, r, { messageId: r.message_id, headers: r.headers })),
      );
      const failed = due.filter((_, i) => results[i].status === 'rejected');
      for (const [i, r] of due.entries()) {
        if (!r.settled && results[i].status === 'fulfilled') this.ahead.set(r.id, positionOf(r));
      }
      if (failed.length > 0) {
        const reason = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
          ?.reason as unknown;
        this.o.logger.warn('outbox publish failed, will retry', {
          schema: this.o.schema,
          rows: failed.length,
          error: reason instanceof Error ? reason.message : String(reason),
        });
      }
      const to = this.cursorAfter(from, { rows, failed, batch, xmin: BigInt(xmin) });
      this.waiting = due.length < rows.length || [...this.ahead.values()].some((p) => after(p, to));
      if (after(to, from)) {
        await tx.query(
          `UPDATE ${this.cursorTable} SET txid = $1::xid8, id = $2, updated_at = now() WHERE relay = 'relay'`,
          [to.txid.toString(), to.id.toString()],
        );
      }
      return due.length - failed.length;
    });
  }

  /**
   * How far the cursor may move after a pass: to the last settled row published, by this pass or ahead of an
   * earlier one, before the first that failed and within the rows this pass saw (all of them past the cursor when
   * the batch was not full). Every row before a settled one is settled, and each was seen and published.
   */
  private cursorAfter(
    from: Position,
    { rows, failed, batch, xmin }: { rows: OutboxRow[]; failed: OutboxRow[]; batch: number; xmin: bigint },
  ): Position {
    const firstFailed = failed.length > 0 ? positionOf(failed[0]) : undefined;
    const seenThrough = rows.length === batch ? positionOf(rows[rows.length - 1]) : undefined;
    let to = from;
    const candidates = [
      ...rows.filter((r) => r.settled && !failed.includes(r)).map(positionOf),
      ...[...this.ahead.values()].filter((p) => p.txid < xmin),
    ];
    for (const p of candidates) {
      if (firstFailed && !after(firstFailed, p)) continue;
      if (seenThrough && after(p, seenThrough)) continue;
      if (after(p, to)) to = p;
    }
    return to;
  }

  /** Number of committed events past the cursor (some of them may be out ahead of it); for metrics and health. */
  async backlog(): Promise<number> {
    const [row] = await this.o.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.table} o, ${this.cursorTable} c
        WHERE c.relay = 'relay' AND (o.txid, o.id) > (c.txid, c.id)`,
    );
    return row.n;
  }

  /**
   * Deletes rows the cursor passed more than `retentionHours` ago (and those the previous release's relay marked
   * published), a batch per statement so that none runs long, until a batch is short or `budgetMs` has passed (at
   * least one batch); returns how many, and whether expired rows may remain. One batch per cleanup interval would
   * cap what the cleanup keeps up with (10,000 rows per 10 min is 17 events a second): a busier service's table
   * would grow for ever.
   */
  async cleanup(budgetMs = CLEANUP_PASS_BUDGET_MS): Promise<{ deleted: number; more: boolean }> {
    const batch = this.o.cleanupBatchSize ?? 10_000;
    const started = performance.now();
    let deleted = 0;
    for (;;) {
      const [row] = await this.o.dataSource.query<{ n: number }[]>(
        `WITH gone AS (
           DELETE FROM ${this.table} WHERE id IN (
             (SELECT o.id FROM ${this.table} o, ${this.cursorTable} c
               WHERE c.relay = 'relay' AND (o.txid, o.id) <= (c.txid, c.id)
                 AND o.created_at < now() - $1::double precision * interval '1 hour'
               ORDER BY o.txid, o.id LIMIT $2)
             UNION ALL
             (SELECT id FROM ${this.table}
               WHERE txid IS NULL AND published_at < now() - $1::double precision * interval '1 hour' LIMIT $2))
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [this.o.retentionHours ?? 24, batch],
      );
      deleted += row.n;
      if (row.n < batch) return { deleted, more: false };
      if (performance.now() - started >= budgetMs) return { deleted, more: true };
    }
  }

  /** Passes until one finds less than a full batch, and the cleanup when it is due; true when rows moved. */
  private async tick(): Promise<boolean> {
    // While the broker is away nothing can be published: keep checking without touching the database.
    if (!this.o.amqp.isConnected()) return true;
    let total = 0;
    try {
      for (;;) {
        const published = await this.relayOnce();
        total += published;
        if (published < (this.o.batchSize ?? 100) || !this.running) break;
      }
      if (Date.now() >= this.nextCleanupAt) {
        const { more } = await this.cleanup();
        // Behind (a backlog of expired rows): the cleanup goes on in a moment rather than a whole interval later.
        this.nextCleanupAt =
          Date.now() +
          (more ? Math.min(CLEANUP_BEHIND_PAUSE_MS, this.cleanupIntervalMs) : this.cleanupIntervalMs);
      }
    } catch (err) {
      this.o.logger.warn('outbox relay pass failed', {
        schema: this.o.schema,
        error: (err as Error).message,
      });
    }
    return total > 0 || this.waiting;
  }
}
