import { sqlMigration } from '@bm/platform';

export const AddRolesAndAuditLog1766710000000 = sqlMigration('AddRolesAndAuditLog1766710000000', {
  up: [
    // Every user there was could do everything: they stay owners, as the operator's invites keep making.
    `ALTER TABLE gateway.dashboard_users ADD COLUMN role text NOT NULL DEFAULT 'owner'
       CHECK (role IN ('viewer', 'agent', 'admin', 'owner'))`,
    // A null role is full tenant access, as every key issued before roles has.
    `ALTER TABLE gateway.api_keys ADD COLUMN name text,
       ADD COLUMN role text CHECK (role IN ('viewer', 'agent', 'admin', 'owner'))`,
    // Removing a user takes their pending invites with them.
    `ALTER TABLE gateway.dashboard_invites DROP CONSTRAINT dashboard_invites_user_id_fkey,
       ADD CONSTRAINT dashboard_invites_user_id_fkey FOREIGN KEY (user_id)
       REFERENCES gateway.dashboard_users(id) ON DELETE CASCADE`,
    // The actor is copied, not referenced: an entry outlives a removed user or a revoked key.
    `CREATE TABLE gateway.audit_log (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL REFERENCES gateway.tenants(id),
      actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_key')),
      actor_id text NOT NULL,
      actor_email text,
      operation_id text NOT NULL,
      method text NOT NULL,
      path text NOT NULL,
      target jsonb NOT NULL DEFAULT '{}',
      status smallint NOT NULL,
      ip text,
      request_id text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    // Newest first per tenant, and the same for each filter the list offers.
    `CREATE INDEX audit_log_tenant_idx ON gateway.audit_log (tenant_id, created_at DESC, id DESC)`,
    `CREATE INDEX audit_log_actor_idx ON gateway.audit_log (tenant_id, actor_id, created_at DESC)`,
    `CREATE INDEX audit_log_actor_email_idx ON gateway.audit_log (tenant_id, actor_email, created_at DESC)
       WHERE actor_email IS NOT NULL`,
    `CREATE INDEX audit_log_action_idx ON gateway.audit_log (tenant_id, operation_id, created_at DESC)`,
  ],
  down: [
    `DROP TABLE gateway.audit_log`,
    `ALTER TABLE gateway.dashboard_invites DROP CONSTRAINT dashboard_invites_user_id_fkey,
       ADD CONSTRAINT dashboard_invites_user_id_fkey FOREIGN KEY (user_id) REFERENCES gateway.dashboard_users(id)`,
    `ALTER TABLE gateway.api_keys DROP COLUMN role, DROP COLUMN name`,
    `ALTER TABLE gateway.dashboard_users DROP COLUMN role`,
  ],
});
