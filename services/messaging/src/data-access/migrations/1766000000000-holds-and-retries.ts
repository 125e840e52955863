import { sqlMigration } from '@bm/platform';

/**
 * The 2026 network (CONTRACT.md, "Holds, errors and their rules"): `held` while the upstream holds a send for
 * quality assessment, `played_at` of a voice message, and `retrying_since`, when the upstream first refused a
 * message for throughput (130429, 131056, 131057), so that such refusals are retried within a window instead of
 * failing the message. Existing logs are not held and were never played; their `error_code` is kept as recorded.
 * Adding a column with a constant default rewrites nothing: the upgrade takes a moment whatever the table's size.
 */
export const HoldsAndRetries1766000000000 = sqlMigration('HoldsAndRetries1766000000000', {
  up: [
    `ALTER TABLE messaging.message_logs ADD COLUMN held boolean NOT NULL DEFAULT false,
       ADD COLUMN played_at timestamptz, ADD COLUMN retrying_since timestamptz`,
  ],
  down: [
    'ALTER TABLE messaging.message_logs DROP COLUMN held, DROP COLUMN played_at, DROP COLUMN retrying_since',
  ],
});
