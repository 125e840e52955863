import { sqlMigration } from '@bm/platform';

/** The scheduler's sweep for queued messages that lost their delivery command reads only such rows. */
export const StrandedQueuedIndex1763900000003 = sqlMigration('StrandedQueuedIndex1763900000003', {
  up: [
    `CREATE INDEX message_logs_stranded_idx ON messaging.message_logs (updated_at)
        WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at IS NULL`,
  ],
  down: ['DROP INDEX messaging.message_logs_stranded_idx'],
});
