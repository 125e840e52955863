import { sqlMigration } from '@bm/platform';
import { countMessageStatusesStatic } from './1765300000000-static-stats-triggers';

/**
 * The daily message counts are read from the hourly counters (MessageStatsRepository.daily sums a day's hours),
 * so the counting trigger stops writing message_stats_daily: one counter row write fewer per status change. The
 * hourly and failure upserts stay as they were (same statements, key order and shards).
 *
 * Hourly rows cover every day the daily ones have, so no day needs the daily table: both tables were created empty
 * by MessageStats1764900000010, every version of the counting function since then upserted both in the same
 * statement at the same now() (a day's row is the sum of its hours' rows), nothing else ever wrote either (no
 * backfill), and nothing prunes hourly rows.
 *
 * message_stats_daily stays (expand/contract): pods of the previous version, still serving during a rolling
 * update, read it. Their daily figures stop at this migration until they are replaced; a later migration drops
 * the table once no version reads it.
 *
 * Summing a month of a busy tenant's hours (30 x 24 hours x 6 statuses x 20 shards: 86,400 rows) took a median
 * 45-65 ms (EXPLAIN ANALYZE, PostgreSQL 15, 2 shared cores) against 4-7 ms for the daily table. foldStatsShards
 * (a periodic task of the messaging workers) folds the shards of hours that ended at least an hour ago into one row
 * (shard 0, never a backend's pid): 4,446 rows, read in about 4.5 ms. The partial index finds the rows still to
 * fold without scanning the table; the trigger's updates of a counter change no indexed column, so stay HOT. Its
 * build holds off counter writes, and so message_logs writes, meanwhile (1.3 s for 4 million hourly rows here).
 * The first pass folds the whole history, in batches (3.4 million rows: 337 statements, 36 s).
 *
 * Down restores the previous function and rebuilds message_stats_daily from the hourly rows, so that the previous
 * version's daily read counts the days this migration was applied too. It holds off counter writes meanwhile (a
 * SHARE lock on the hourly table); a statement already counting when the rollback commits misses the daily table.
 */
export const MessageStatsFromHourly1767200000000 = sqlMigration('MessageStatsFromHourly1767200000000', {
  up: [
    countMessageStatusesStatic({ daily: false }),
    `CREATE INDEX message_stats_hourly_unfolded_idx ON messaging.message_stats_hourly (hour) WHERE shard <> 0`,
  ],
  down: [
    countMessageStatusesStatic(),
    'LOCK TABLE messaging.message_stats_hourly IN SHARE MODE',
    'DELETE FROM messaging.message_stats_daily',
    `INSERT INTO messaging.message_stats_daily (tenant_id, day, status, shard, count)
     SELECT tenant_id, date_trunc('day', hour), status, 0, sum(count)
       FROM messaging.message_stats_hourly GROUP BY 1, 2, 3`,
    'DROP INDEX messaging.message_stats_hourly_unfolded_idx',
  ],
});
