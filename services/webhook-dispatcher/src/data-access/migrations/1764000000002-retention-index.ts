import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The retention task finds finished deliveries by age without scanning the table. */
export class RetentionIndex1764000000002 implements MigrationInterface {
  name = 'RetentionIndex1764000000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX deliveries_finished_idx ON dispatcher.deliveries (created_at) WHERE status <> 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX dispatcher.deliveries_finished_idx`);
  }
}
