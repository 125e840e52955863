import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The scheduler's sweep for queued messages that lost their delivery command reads only such rows. */
export class StrandedQueuedIndex1763900000003 implements MigrationInterface {
  name = 'StrandedQueuedIndex1763900000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX message_logs_stranded_idx ON messaging.message_logs (updated_at)
        WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX messaging.message_logs_stranded_idx');
  }
}
