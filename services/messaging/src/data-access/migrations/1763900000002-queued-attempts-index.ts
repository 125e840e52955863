import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The scheduler looks for abandoned attempts every pass: an index on queued rows keeps that off the whole table. */
export class QueuedAttemptsIndex1763900000002 implements MigrationInterface {
  name = 'QueuedAttemptsIndex1763900000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX message_logs_attempt_idx ON messaging.message_logs (attempt_started_at)
        WHERE status = 'queued' AND attempt_started_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX messaging.message_logs_attempt_idx');
  }
}
