import { createOutboxTable, dropOutboxTable, sqlMigration } from '@bm/platform';

export const CreateIngress1764100000000 = sqlMigration('CreateIngress1764100000000', {
  up: [
    // The audit log: one row per verified delivery, the body kept as received so it can be split again.
    `CREATE TABLE ingress.inbound_events (
      id text PRIMARY KEY,
      received_at timestamptz NOT NULL DEFAULT now(),
      request_id text,
      body_sha256 text NOT NULL,
      body_bytes integer NOT NULL,
      raw_body text NOT NULL,
      headers jsonb NOT NULL,
      signed_with text NOT NULL,
      outcome text NOT NULL DEFAULT 'pending',
      item_count integer NOT NULL DEFAULT 0,
      published_count integer NOT NULL DEFAULT 0,
      duplicate_count integer NOT NULL DEFAULT 0,
      unroutable_count integer NOT NULL DEFAULT 0,
      skipped_count integer NOT NULL DEFAULT 0,
      unroutable_phone_number_ids text[] NOT NULL DEFAULT '{}',
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      processed_at timestamptz
    )`,
    `CREATE INDEX inbound_events_due_idx ON ingress.inbound_events (next_attempt_at) WHERE outcome = 'pending'`,
    `CREATE INDEX inbound_events_outcome_idx ON ingress.inbound_events (outcome, id)`,
    `CREATE INDEX inbound_events_body_idx ON ingress.inbound_events (body_sha256)`,
    // One row per item ever put in the outbox: the primary key is what makes each item go out once.
    `CREATE TABLE ingress.published_items (
      dedupe_key text PRIMARY KEY,
      item_event_id text NOT NULL,
      routing_key text NOT NULL,
      inbound_event_id text NOT NULL REFERENCES ingress.inbound_events(id),
      phone_number_id text,
      tenant_id integer,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX published_items_event_idx ON ingress.published_items (inbound_event_id)`,
    `CREATE TABLE ingress.notifications (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      type text NOT NULL,
      dedupe_key text NOT NULL UNIQUE,
      channel_account_id text NOT NULL,
      phone_number_id text NOT NULL,
      customer_phone text NOT NULL,
      customer_name text,
      message_id text NOT NULL,
      text text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX notifications_tenant_idx ON ingress.notifications (tenant_id, created_at DESC, id DESC)`,
    (q) => createOutboxTable(q, 'ingress'),
  ],
  down: [
    (q) => dropOutboxTable(q, 'ingress'),
    'DROP TABLE IF EXISTS ingress.notifications',
    'DROP TABLE IF EXISTS ingress.published_items',
    'DROP TABLE IF EXISTS ingress.inbound_events',
  ],
});
