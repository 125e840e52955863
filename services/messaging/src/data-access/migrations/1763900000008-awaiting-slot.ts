import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A claimed message that is still waiting for its number's throughput slot says so, so that when its worker dies
 * the sweep knows it never reached the upstream and sends it again, instead of failing it as an attempt whose
 * outcome is unknown.
 */
export class AwaitingSlot1763900000008 implements MigrationInterface {
  name = 'AwaitingSlot1763900000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE messaging.message_logs ADD COLUMN awaiting_slot boolean NOT NULL DEFAULT false',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messaging.message_logs DROP COLUMN awaiting_slot');
  }
}
