import { sqlMigration } from '@bm/platform';

/** The scheduler looks for abandoned attempts every pass: an index on queued rows keeps that off the whole table. */
export const QueuedAttemptsIndex1763900000002 = sqlMigration('QueuedAttemptsIndex1763900000002', {
  up: [
    `CREATE INDEX message_logs_attempt_idx ON messaging.message_logs (attempt_started_at)
        WHERE status = 'queued' AND attempt_started_at IS NOT NULL`,
  ],
  down: ['DROP INDEX messaging.message_logs_attempt_idx'],
});
