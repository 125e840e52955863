import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Items of a body that could not be published are kept with their reason (`skipped_items`), and failures that
 * will not change on retry are counted apart from outages (`permanent_failures`): past a limit the event is
 * `failed` and no longer tried.
 */
export class PerItemIsolation1764100000002 implements MigrationInterface {
  name = 'PerItemIsolation1764100000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ingress.inbound_events
      ADD COLUMN skipped_items jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN permanent_failures integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE ingress.inbound_events SET outcome = 'pending' WHERE outcome = 'failed'`);
    await q.query(
      `ALTER TABLE ingress.inbound_events DROP COLUMN skipped_items, DROP COLUMN permanent_failures`,
    );
  }
}
