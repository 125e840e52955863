import { sqlMigration } from '@bm/platform';

/** The four counters of the rows `rows` selects, signed by `sign` (an expression of those rows). */
const countersOf = (rows: string, sign: string) => `
          SELECT campaign_id,
                 coalesce(sum(${sign}) FILTER (WHERE status = 'pending' AND requested_at IS NULL), 0) AS unrequested,
                 coalesce(sum(${sign}) FILTER (WHERE status = 'pending' AND requested_at IS NOT NULL), 0) AS in_flight,
                 coalesce(sum(${sign}) FILTER (WHERE status = 'sent'), 0) AS sent,
                 coalesce(sum(${sign}) FILTER (WHERE status = 'failed'), 0) AS failed
            FROM (${rows}) r GROUP BY campaign_id`;

/** Adds the counters of `deltas` (a query answering countersOf's columns) to this backend's shard, in key order. */
const addCounters = (deltas: string) => `
          INSERT INTO campaign.recipient_counts AS s (campaign_id, shard, unrequested, in_flight, sent, failed)
          SELECT campaign_id, pg_backend_pid(), unrequested, in_flight, sent, failed FROM (${deltas}) d
           WHERE unrequested <> 0 OR in_flight <> 0 OR sent <> 0 OR failed <> 0
           ORDER BY campaign_id
          ON CONFLICT (campaign_id, shard) DO UPDATE
            SET unrequested = s.unrequested + EXCLUDED.unrequested, in_flight = s.in_flight + EXCLUDED.in_flight,
                sent = s.sent + EXCLUDED.sent, failed = s.failed + EXCLUDED.failed`;

/**
 * A campaign's recipients counted by where they stand (unrequested, in flight, sent, failed), kept by
 * statement-level triggers on campaign.recipients: the dispatcher reads them on every step and GET
 * /api/v1/campaigns/{id} on every call, and counting a 50,000-recipient campaign's rows (three index entries and
 * a heap visit per recipient once its row has been updated twice) took 35-50 ms each time, a third of the
 * database's time during a dispatch.
 *
 * As messaging's message_stats, each row is keyed by the writing backend (`shard` = pg_backend_pid()): a backend
 * runs one transaction at a time, so the dispatcher and the status consumer never wait on each other's counter
 * rows and cannot deadlock on them; a reader sums a campaign's shards (one per pooled connection that wrote).
 * The counters commit with the recipient changes that move them, so a reader sees them as it would the rows.
 */
export const RecipientCounts1765400000000 = sqlMigration('RecipientCounts1765400000000', {
  up: [
    `CREATE TABLE campaign.recipient_counts (
      campaign_id text NOT NULL,
      shard integer NOT NULL,
      unrequested bigint NOT NULL,
      in_flight bigint NOT NULL,
      sent bigint NOT NULL,
      failed bigint NOT NULL,
      PRIMARY KEY (campaign_id, shard)
    )`,
    `CREATE FUNCTION campaign.count_recipients() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${addCounters(countersOf('SELECT campaign_id, status, requested_at FROM new_rows', '1'))};
        ELSIF TG_OP = 'DELETE' THEN
          ${addCounters(countersOf('SELECT campaign_id, status, requested_at FROM old_rows', '-1'))};
        ELSE
          ${addCounters(
            countersOf(
              `SELECT campaign_id, status, requested_at, 1 AS sign FROM new_rows
               UNION ALL SELECT campaign_id, status, requested_at, -1 FROM old_rows`,
              'sign',
            ),
          )};
        END IF;
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER recipients_count_insert AFTER INSERT ON campaign.recipients
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign.count_recipients()`,
    `CREATE TRIGGER recipients_count_update AFTER UPDATE ON campaign.recipients
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION campaign.count_recipients()`,
    `CREATE TRIGGER recipients_count_delete AFTER DELETE ON campaign.recipients
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign.count_recipients()`,
    // The recipients already there, counted once (shard 0 is no backend's): the triggers above hold the table's
    // write lock until this migration commits, so no change is counted twice or missed.
    `INSERT INTO campaign.recipient_counts (campaign_id, shard, unrequested, in_flight, sent, failed)
     SELECT campaign_id, 0, unrequested, in_flight, sent, failed
       FROM (${countersOf('SELECT campaign_id, status, requested_at FROM campaign.recipients', '1')}) c`,
  ],
  down: [
    'DROP TRIGGER recipients_count_delete ON campaign.recipients',
    'DROP TRIGGER recipients_count_update ON campaign.recipients',
    'DROP TRIGGER recipients_count_insert ON campaign.recipients',
    'DROP FUNCTION campaign.count_recipients()',
    'DROP TABLE campaign.recipient_counts',
  ],
});
