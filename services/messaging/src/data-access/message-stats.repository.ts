import type { DataSource } from 'typeorm';
import type { MessageStatsReader, StatsRow } from '../domain/ports/stats.port';

/**
 * The counters the message_logs triggers keep (migration MessageStats1764900000010): a range of one tenant's
 * buckets by primary key, the shards summed. Never touches message_logs.
 */
export class MessageStatsRepository implements MessageStatsReader {
  constructor(private readonly dataSource: DataSource) {}

  async hourly(tenantId: number, from: Date): Promise<StatsRow[]> {
    return this.buckets('message_stats_hourly', 'hour', tenantId, from);
  }

  async daily(tenantId: number, from: Date): Promise<StatsRow[]> {
    return this.buckets('message_stats_daily', 'day', tenantId, from);
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

  private async buckets(table: string, column: string, tenantId: number, from: Date): Promise<StatsRow[]> {
    const rows: Array<{ start: string; status: string; count: string }> = await this.dataSource.query(
      `SELECT to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, status, sum(count) AS count
         FROM messaging.${table} WHERE tenant_id = $1 AND ${column} >= $2 GROUP BY 1, 2`,
      [tenantId, utc(from)],
    );
    return rows.map((r) => ({ start: new Date(r.start), status: r.status, count: Number(r.count) }));
  }
}

// The buckets are UTC wall-clock timestamps (without time zone); compare them with the same.
const utc = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
