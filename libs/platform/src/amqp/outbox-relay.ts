import type { DataSource } from 'typeorm';
import type { PgListener } from '../db/pg-listener';
import { outboxChannel, WakeGate } from '../db/wake-gate';
import type { Logger } from '../logger';
import { PeriodicTask } from '../periodic-task';
import type { ServiceMetrics } from '../metrics/service-metrics';
import type { EventPublisher, PublishOptions } from './amqp.types';
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
  message_id: string;
  routing_key: string;
  /** The stored jsonb as JSON text. */
  payload: string;
  headers: Record<string, unknown>;
}

/** Publishes a row's stored JSON as it is when the publisher takes JSON text, else parsed. */
function publishStored(amqp: EventPublisher, row: OutboxRow, options: PublishOptions): Promise<void> {
  return amqp.publishJson
    ? amqp.publishJson(row.routing_key, row.payload, options)
    : amqp.publish(row.routing_key, JSON.parse(row.payload) as object, options);
}

/**
 * Publishes committed outbox rows to RabbitMQ at least once, in id order per pass. Safe with several replicas:
 * rows are locked with SKIP LOCKED until their publish is confirmed and they are marked published.
 */
export class OutboxRelay {
  private readonly table: string;
  private readonly task: PeriodicTask;
  private running = false;
  private nextCleanupAt = 0;
  private stopReporting?: () => void;
  private readonly cleanupIntervalMs: number;

  constructor(private readonly o: OutboxRelayOptions) {
    this.table = `${quoteSchema(o.schema)}.outbox`;
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

  /** One pass: publishes up to a batch of unpublished rows and marks them; returns how many were published. */
  async relayOnce(): Promise<number> {
    // While the broker is away every publish would fail; skip the transaction and its row locks.
    if (!this.o.amqp.isConnected()) return 0;
    return this.o.dataSource.transaction(async (tx) => {
      // Claimed and marked published in one statement; the transaction stays open until the broker confirmed, so
      // the mark commits only after the publish: a crash (or a lost database) before the commit leaves the rows
      // unpublished and a later pass publishes them again (at least once; consumers dedupe by messageId), and
      // SKIP LOCKED keeps another relay off them meanwhile. `id = ANY(ARRAY(...))` keeps the update an index
      // lookup by id: a join with the subquery may be planned as a hash join over the whole table, published rows
      // of the retention included, once the statistics expect many unpublished rows.
      const [claimed]: [OutboxRow[], number] = await tx.query(
        `UPDATE ${this.table} SET published_at = now(), attempts = attempts + 1
         WHERE id = ANY(ARRAY(
           SELECT id FROM ${this.table} WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED))
         RETURNING id, message_id, routing_key, payload::text AS payload, headers`,
        [this.o.batchSize ?? 100],
      );
      if (claimed.length === 0) return 0;
      // RETURNING keeps no order; ids are bigints as decimal strings.
      const rows = claimed.sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
      // Issued back to back and confirmed together: one broker round trip per batch, not per row. The payload
      // goes out as the text PostgreSQL stored, never parsed and serialised again.
      const results = await Promise.allSettled(
        rows.map((r) => publishStored(this.o.amqp, r, { messageId: r.message_id, headers: r.headers })),
      );
      const failed = rows.filter((_, i) => results[i].status === 'rejected').map((r) => r.id);
      if (failed.length > 0) {
        const reason = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
          ?.reason as unknown;
        const error = reason instanceof Error ? reason.message : String(reason);
        // Left unpublished for the next pass; attempts (counted by the claim) and last_error show a stuck row.
        await tx.query(
          `UPDATE ${this.table} SET published_at = NULL, last_error = $2 WHERE id = ANY($1::bigint[])`,
          [failed, error],
        );
        this.o.logger.warn('outbox publish failed, will retry', {
          schema: this.o.schema,
          rows: failed.length,
          error,
        });
      }
      return rows.length - failed.length;
    });
  }

  /** Number of committed events not yet published; for metrics and health. */
  async backlog(): Promise<number> {
    const [row] = await this.o.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.table} WHERE published_at IS NULL`,
    );
    return row.n;
  }

  /**
   * Deletes rows published more than `retentionHours` ago, a batch per statement so that none runs long, until a
   * batch is short or `budgetMs` has passed (at least one batch); returns how many, and whether expired rows may
   * remain. One batch per cleanup interval would cap what the cleanup keeps up with (10,000 rows per 10 min is 17
   * events a second): a busier service's table would grow for ever.
   */
  async cleanup(budgetMs = CLEANUP_PASS_BUDGET_MS): Promise<{ deleted: number; more: boolean }> {
    const batch = this.o.cleanupBatchSize ?? 10_000;
    const started = performance.now();
    let deleted = 0;
    for (;;) {
      const [row] = await this.o.dataSource.query<{ n: number }[]>(
        `WITH gone AS (
           DELETE FROM ${this.table} WHERE id IN (
             SELECT id FROM ${this.table}
             WHERE published_at < now() - $1::double precision * interval '1 hour' LIMIT $2)
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
    return total > 0;
  }
}
