import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTenantsAndApiKeys1763800000000 implements MigrationInterface {
  name = 'CreateTenantsAndApiKeys1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE gateway.tenants (
      id serial PRIMARY KEY,
      name text NOT NULL,
      plan text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE gateway.api_keys (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL REFERENCES gateway.tenants(id),
      secret_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);
    await q.query(`CREATE INDEX api_keys_tenant_idx ON gateway.api_keys (tenant_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gateway.api_keys`);
    await q.query(`DROP TABLE gateway.tenants`);
  }
}
