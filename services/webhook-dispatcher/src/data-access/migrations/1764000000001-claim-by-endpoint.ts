import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The claim walks endpoints (a skip scan over tenant_id) and each endpoint's due deliveries in time order,
 * instead of all due deliveries in time order: a hanging endpoint's backlog is no longer scanned on every claim.
 */
export class ClaimByEndpoint1764000000001 implements MigrationInterface {
  name = 'ClaimByEndpoint1764000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX deliveries_endpoint_due_idx ON dispatcher.deliveries (tenant_id, next_attempt_at)
        WHERE status = 'pending'`,
    );
    await q.query(`DROP INDEX dispatcher.deliveries_due_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX deliveries_due_idx ON dispatcher.deliveries (next_attempt_at, id) WHERE status = 'pending'`,
    );
    await q.query(`DROP INDEX dispatcher.deliveries_endpoint_due_idx`);
  }
}
