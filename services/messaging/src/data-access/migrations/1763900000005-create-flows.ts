import { sqlMigration } from '@bm/platform';

/** Conversation flows, their versions (a session runs the version it started on) and sessions. */
export const CreateFlows1763900000005 = sqlMigration('CreateFlows1763900000005', {
  up: [
    `CREATE TABLE messaging.flows (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
      name text NOT NULL,
      status text NOT NULL DEFAULT 'inactive' CHECK (status IN ('active', 'inactive')),
      version integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX flows_tenant_idx ON messaging.flows (tenant_id, created_at DESC, id DESC)',
    "CREATE INDEX flows_active_idx ON messaging.flows (channel_account_id) WHERE status = 'active'",
    `CREATE TABLE messaging.flow_versions (
      flow_id text NOT NULL REFERENCES messaging.flows(id),
      version integer NOT NULL,
      definition jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (flow_id, version)
    )`,
    `CREATE TABLE messaging.flow_sessions (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      flow_id text NOT NULL,
      flow_version integer NOT NULL,
      channel_account_id text NOT NULL,
      customer_phone text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'completed', 'handed_off', 'cancelled', 'timed_out')),
      current_step text,
      variables jsonb NOT NULL DEFAULT '{}'::jsonb,
      started_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      ended_at timestamptz,
      FOREIGN KEY (flow_id, flow_version) REFERENCES messaging.flow_versions(flow_id, version)
    )`,
    // One running session per customer of a number.
    `CREATE UNIQUE INDEX flow_sessions_one_active
      ON messaging.flow_sessions (channel_account_id, customer_phone) WHERE status = 'active'`,
    "CREATE INDEX flow_sessions_expiry_idx ON messaging.flow_sessions (expires_at) WHERE status = 'active'",
    'CREATE INDEX flow_sessions_flow_idx ON messaging.flow_sessions (flow_id, started_at DESC, id DESC)',
  ],
  down: [
    'DROP TABLE messaging.flow_sessions',
    'DROP TABLE messaging.flow_versions',
    'DROP TABLE messaging.flows',
  ],
});
