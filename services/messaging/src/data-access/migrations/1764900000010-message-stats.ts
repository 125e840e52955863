import { sqlMigration } from '@bm/platform';

/** The daily counter's upsert, a CTE of countChangedStatuses (until MessageStatsFromHourly1767200000000). */
const dailyUpsert = `,
          d AS (
            INSERT INTO messaging.message_stats_daily AS s (tenant_id, day, status, shard, count)
            SELECT tenant_id, date_trunc('day', now() AT TIME ZONE 'UTC'), status, pg_backend_pid(), count(*)
              FROM c GROUP BY tenant_id, status ORDER BY 1, 3
            ON CONFLICT (tenant_id, day, status, shard) DO UPDATE SET count = s.count + EXCLUDED.count)`;

/**
 * The counter upserts of the rows `changed` selects (every inserted row; updated rows whose status moved), in
 * key order: the body of the counting trigger function. Hourly, daily (unless `daily` is false: the daily counts
 * are read from the hourly ones since MessageStatsFromHourly1767200000000), then failures.
 */
export const countChangedStatuses = (
  changed: string,
  cte: 'AS' | 'AS MATERIALIZED' = 'AS',
  { daily = true }: { daily?: boolean } = {},
) => `
          WITH c ${cte} (${changed}),
          h AS (
            INSERT INTO messaging.message_stats_hourly AS s (tenant_id, hour, status, shard, count)
            SELECT tenant_id, date_trunc('hour', now() AT TIME ZONE 'UTC'), status, pg_backend_pid(), count(*)
              FROM c GROUP BY tenant_id, status ORDER BY 1, 3
            ON CONFLICT (tenant_id, hour, status, shard) DO UPDATE SET count = s.count + EXCLUDED.count)${daily ? dailyUpsert : ''}
          INSERT INTO messaging.message_failure_stats AS s (tenant_id, day, error, shard, count)
          SELECT tenant_id, date_trunc('day', now() AT TIME ZONE 'UTC'), left(coalesce(error_message, 'unknown'), 200),
                 pg_backend_pid(), count(*)
            FROM c WHERE status = 'failed' GROUP BY 1, 3 ORDER BY 1, 3
          ON CONFLICT (tenant_id, day, error, shard) DO UPDATE SET count = s.count + EXCLUDED.count
        `;

/**
 * The first counting function: one dynamic statement for both triggers. PL/pgSQL plans an EXECUTE afresh on every
 * call (about 0.4 ms a statement); MessageStatsStatic1765300000000 replaces it, and its down migration restores this.
 */
export const COUNT_MESSAGE_STATUSES_DYNAMIC = `CREATE OR REPLACE FUNCTION messaging.count_message_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed text := CASE WHEN TG_OP = 'INSERT'
          THEN 'SELECT tenant_id, status, error_message FROM new_rows'
          ELSE 'SELECT n.tenant_id, n.status, n.error_message FROM new_rows n JOIN old_rows o ON o.id = n.id
                 WHERE n.status IS DISTINCT FROM o.status' END;
      BEGIN
        EXECUTE format($q$${countChangedStatuses('%s')}$q$, changed);
        RETURN NULL;
      END $$`;

/**
 * Pre-aggregated message counts for GET /api/v1/stats: how many of a tenant's messages entered each status per
 * hour and per day (UTC), and failures by error per day. Statement-level triggers on message_logs keep them, so
 * the send and status paths need no change and the overview never scans message_logs.
 *
 * Each row is keyed by the writing backend (`shard` = pg_backend_pid()): a backend runs one transaction at a
 * time, so two transactions never update the same counter row, and the counters add no lock waits and no
 * deadlocks to the hot paths. A reader sums the shards (a few rows per bucket, one per pooled connection).
 */
export const MessageStats1764900000010 = sqlMigration('MessageStats1764900000010', {
  up: [
    ...[
      ['message_stats_hourly', 'hour'],
      ['message_stats_daily', 'day'],
    ].map(
      ([table, bucket]) => `CREATE TABLE messaging.${table} (
        tenant_id integer NOT NULL,
        ${bucket} timestamp NOT NULL,
        status text NOT NULL,
        shard integer NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (tenant_id, ${bucket}, status, shard)
      )`,
    ),
    `CREATE TABLE messaging.message_failure_stats (
      tenant_id integer NOT NULL,
      day timestamp NOT NULL,
      error text NOT NULL,
      shard integer NOT NULL,
      count bigint NOT NULL,
      PRIMARY KEY (tenant_id, day, error, shard)
    )`,
    // One statement per fired statement: the changed rows (every inserted row; updated rows whose status moved)
    // feed the three counters through data-modifying CTEs. Rows are upserted in key order.
    COUNT_MESSAGE_STATUSES_DYNAMIC,
    `CREATE TRIGGER message_logs_stats_insert AFTER INSERT ON messaging.message_logs
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messaging.count_message_statuses()`,
    `CREATE TRIGGER message_logs_stats_update AFTER UPDATE ON messaging.message_logs
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION messaging.count_message_statuses()`,
  ],
  down: [
    'DROP TRIGGER message_logs_stats_update ON messaging.message_logs',
    'DROP TRIGGER message_logs_stats_insert ON messaging.message_logs',
    'DROP FUNCTION messaging.count_message_statuses()',
    'DROP TABLE messaging.message_failure_stats',
    'DROP TABLE messaging.message_stats_daily',
    'DROP TABLE messaging.message_stats_hourly',
  ],
});
