import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Every consumer dedupes on its own key (message id, status rules, campaign recipient), so this table went unused. */
export class DropProcessedEvents1763900000004 implements MigrationInterface {
  name = 'DropProcessedEvents1763900000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE messaging.processed_events');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE messaging.processed_events (
      message_id text PRIMARY KEY,
      processed_at timestamptz NOT NULL DEFAULT now()
    )`);
  }
}
