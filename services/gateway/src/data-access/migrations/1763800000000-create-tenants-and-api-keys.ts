import { sqlMigration } from '@bm/platform';

export const CreateTenantsAndApiKeys1763800000000 = sqlMigration('CreateTenantsAndApiKeys1763800000000', {
  up: [
    `CREATE TABLE gateway.tenants (
      id serial PRIMARY KEY,
      name text NOT NULL,
      plan text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE gateway.api_keys (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL REFERENCES gateway.tenants(id),
      secret_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`,
    `CREATE INDEX api_keys_tenant_idx ON gateway.api_keys (tenant_id)`,
  ],
  down: [`DROP TABLE gateway.api_keys`, `DROP TABLE gateway.tenants`],
});
