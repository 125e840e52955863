import { sqlMigration } from '@bm/platform';

export const CreateDashboardUsers1764900000000 = sqlMigration('CreateDashboardUsers1764900000000', {
  up: [
    // One account per email across tenants: a person signs in with an email and must land in one tenant.
    `CREATE TABLE gateway.dashboard_users (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL REFERENCES gateway.tenants(id),
      email text NOT NULL UNIQUE,
      password_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      password_set_at timestamptz
    )`,
    `CREATE INDEX dashboard_users_tenant_idx ON gateway.dashboard_users (tenant_id)`,
    // Only the SHA-256 of an invite token is kept; the link itself is shown once, to the operator.
    `CREATE TABLE gateway.dashboard_invites (
      token_hash bytea PRIMARY KEY,
      user_id text NOT NULL REFERENCES gateway.dashboard_users(id),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX dashboard_invites_user_idx ON gateway.dashboard_invites (user_id)`,
  ],
  down: [`DROP TABLE gateway.dashboard_invites`, `DROP TABLE gateway.dashboard_users`],
});
