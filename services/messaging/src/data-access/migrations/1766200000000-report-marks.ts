import { sqlMigration } from '@bm/platform';

/**
 * How far the upstream's status reports of each number have come (issue 33, a crash costs seconds): the latest
 * `sent_at` among the messages a status batch applied reports to. A send claimed by a worker that died, with no
 * report of its own while sends of the same number answered well after it have been reported, never reached the
 * upstream, and is sent again at once. Keyed by the writing backend (`shard`), as the message counters are: no two
 * status batches wait on one row.
 */
export const ReportMarks1766200000000 = sqlMigration('ReportMarks1766200000000', {
  up: [
    `CREATE TABLE messaging.report_marks (
       channel_account_id text NOT NULL,
       shard integer NOT NULL,
       reported_through timestamptz NOT NULL,
       PRIMARY KEY (channel_account_id, shard)
     )`,
  ],
  down: ['DROP TABLE messaging.report_marks'],
});
