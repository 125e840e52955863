import { queryRows } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { MessageStatsReader, MessageStatsUpkeep, StatsRow } from '../domain/ports/stats.port';

/**
 * The counters the message_logs triggers keep (migration MessageStats1764900000010): a range of one tenant's
 * buckets by primary key, the shards summed. Never touches message_logs.
 */
export class MessageStatsRepository implements MessageStatsReader, MessageStatsUpkeep {
  constructor(private readonly dataSource: DataSource) {}

  async hourly(tenantId: number, from: Date): Promise<StatsRow[]> {
    return this.buckets('hour', tenantId, from);
  }

  /**
   * A day's counts are the sum of its hours' (both UTC; MessageStatsFromHourly1767200000000): the trigger no longer
   * writes message_stats_daily, and never wrote a day there without its hours.
   */
  async daily(tenantId: number, from: Date): Promise<StatsRow[]> {
    return this.buckets(`date_trunc('day', hour)`, tenantId, from);
  }

  async failuresByError(
    tenantId: number,
    from: Date,
    limit: number,
  ): Promise<Array<{ error: string; count: number }>> {
    const rows: Array<{ error: string; count: string }> = await this.dataSource.query(
      `SELECT error, sum(count) AS count FROM messaging.message_failure_stats
        WHERE tenant_id = $1 AND day >= $2 GROUP BY error ORDER BY 2 DESC, 1 LIMIT ${limit}`,
      [tenantId, utc(from)],
    );
    return rows.map((r) => ({ error: r.error, count: Number(r.count) }));
  }

  async costDaily(
    tenantId: number,
    from: Date,
    currency: string,
  ): Promise<Array<{ start: Date; category: string; amount: number }>> {
    const rows: Array<{ start: string; category: string; amount: string }> = await this.dataSource.query(
      `SELECT to_char(day, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, category, sum(amount) AS amount
         FROM messaging.message_cost_daily WHERE tenant_id = $1 AND day >= $2 AND currency = $3 GROUP BY 1, 2`,
      [tenantId, utc(from), currency],
    );
    return rows.map((r) => ({ start: new Date(r.start), category: r.category, amount: Number(r.amount) }));
  }

  /**
   * Folds shard rows of hours that ended at least an hour ago (a transaction counts in the hour it began, so the last
   * one still gets late counts) into one row per hour and status, shard 0 (no backend's pid). Rows a counting
   * transaction holds are skipped, for a later pass: the fold never waits on the hot path, and a count that comes
   * after its row was folded makes a new shard row, summed by the reads and folded in turn. The figures stay.
   */
  async foldFinishedHours(limit: number): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.dataSource,
      `WITH picked AS (
         SELECT ctid FROM messaging.message_stats_hourly
          WHERE shard <> 0 AND hour < date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '1 hour'
          ORDER BY hour LIMIT $1 FOR UPDATE SKIP LOCKED),
       gone AS (
         DELETE FROM messaging.message_stats_hourly WHERE ctid = ANY(ARRAY(SELECT ctid FROM picked))
         RETURNING tenant_id, hour, status, count),
       folded AS (
         INSERT INTO messaging.message_stats_hourly AS s (tenant_id, hour, status, shard, count)
         SELECT tenant_id, hour, status, 0, sum(count) FROM gone GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
         ON CONFLICT (tenant_id, hour, status, shard) DO UPDATE SET count = s.count + EXCLUDED.count)
       SELECT count(*)::int AS n FROM gone`,
      [limit],
    );
    return rows[0].n;
  }

  /** The tenant's hourly counters since `from`, summed by `bucket` (an expression of `hour`) and status. */
  private async buckets(bucket: string, tenantId: number, from: Date): Promise<StatsRow[]> {
    const rows: Array<{ start: string; status: string; count: string }> = await this.dataSource.query(
      `SELECT to_char(start, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, status, count
         FROM (SELECT ${bucket} AS start, status, sum(count) AS count FROM messaging.message_stats_hourly
                WHERE tenant_id = $1 AND hour >= $2 GROUP BY 1, 2) b`,
      [tenantId, utc(from)],
    );
    return rows.map((r) => ({ start: new Date(r.start), status: r.status, count: Number(r.count) }));
  }
}

// The buckets are UTC wall-clock timestamps (without time zone); compare them with the same.
const utc = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
