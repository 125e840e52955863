import { createIdempotencyTable, createOutboxTable, dropOutboxTable, sqlMigration } from '@bm/platform';

export const CreateMessaging1763900000000 = sqlMigration('CreateMessaging1763900000000', {
  up: [
    `CREATE TABLE messaging.channel_accounts (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      phone_number_id text NOT NULL UNIQUE,
      waba_id text NOT NULL,
      display_phone_number text NOT NULL,
      access_token_sealed text NOT NULL,
      tier text NOT NULL,
      throughput_per_second integer NOT NULL,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX channel_accounts_tenant_idx ON messaging.channel_accounts (tenant_id)`,
    `CREATE INDEX channel_accounts_waba_idx ON messaging.channel_accounts (waba_id)`,
    `CREATE TABLE messaging.templates (
      id text PRIMARY KEY,
      channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
      upstream_id text,
      name text NOT NULL,
      language text NOT NULL,
      status text NOT NULL,
      category text NOT NULL,
      header_format text,
      header_sample_media_url text,
      components jsonb NOT NULL,
      quality text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (channel_account_id, name, language)
    )`,
    `CREATE TABLE messaging.message_logs (
      id bigserial PRIMARY KEY,
      tenant_id integer NOT NULL,
      channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
      to_phone text NOT NULL,
      message_type text NOT NULL,
      content jsonb NOT NULL,
      template_category text,
      conversation_category text NOT NULL,
      status text NOT NULL,
      provider_message_id text UNIQUE,
      scheduled_at timestamptz,
      sent_at timestamptz,
      delivered_at timestamptz,
      read_at timestamptz,
      failed_at timestamptz,
      cost_amount numeric(12, 4) NOT NULL DEFAULT 0,
      cost_currency text NOT NULL DEFAULT 'USD',
      error_code integer,
      error_message text,
      auto_retry_on_frequency_cap boolean NOT NULL DEFAULT false,
      retry_count integer NOT NULL DEFAULT 0,
      retry_of_message_log_id bigint REFERENCES messaging.message_logs(id),
      retried_by_message_log_id bigint REFERENCES messaging.message_logs(id),
      campaign_id text,
      campaign_recipient_id text UNIQUE,
      send_attempts integer NOT NULL DEFAULT 0,
      attempt_started_at timestamptz,
      next_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX message_logs_tenant_idx ON messaging.message_logs (tenant_id, id DESC)`,
    `CREATE INDEX message_logs_due_idx ON messaging.message_logs (scheduled_at) WHERE status = 'scheduled'`,
    `CREATE INDEX message_logs_retry_idx ON messaging.message_logs (next_attempt_at) WHERE status = 'queued' AND next_attempt_at IS NOT NULL`,
    `CREATE INDEX message_logs_campaign_idx ON messaging.message_logs (campaign_id) WHERE campaign_id IS NOT NULL`,
    // Status reports that arrive before the send recorded its provider id; applied once it is.
    `CREATE TABLE messaging.pending_status_reports (
      provider_message_id text NOT NULL,
      status text NOT NULL,
      report jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider_message_id, status)
    )`,
    `CREATE TABLE messaging.service_windows (
      channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
      customer_phone text NOT NULL,
      last_inbound_at timestamptz NOT NULL,
      PRIMARY KEY (channel_account_id, customer_phone)
    )`,
    `CREATE TABLE messaging.inbound_messages (
      provider_message_id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
      from_phone text NOT NULL,
      type text NOT NULL,
      body jsonb NOT NULL,
      received_at timestamptz NOT NULL
    )`,
    // One row per business-initiated conversation: the rolling 24 h tier limit counts these.
    `CREATE TABLE messaging.conversations (
      id bigserial PRIMARY KEY,
      channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
      customer_phone text NOT NULL,
      opened_at timestamptz NOT NULL DEFAULT now(),
      message_log_id bigint,
      reference text
    )`,
    `CREATE INDEX conversations_window_idx ON messaging.conversations (channel_account_id, opened_at)`,
    `CREATE INDEX conversations_customer_idx ON messaging.conversations (channel_account_id, customer_phone, opened_at)`,
    // Capacity held for a campaign until its messages open their conversations (or the hold expires).
    `CREATE TABLE messaging.capacity_reservations (
      id text PRIMARY KEY,
      channel_account_id text NOT NULL REFERENCES messaging.channel_accounts(id),
      reference text NOT NULL,
      count integer NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (channel_account_id, reference)
    )`,
    (q) => createIdempotencyTable(q, 'messaging'),
    `CREATE TABLE messaging.opt_outs (
      tenant_id integer NOT NULL,
      phone text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, phone)
    )`,
    `CREATE TABLE messaging.processed_events (
      message_id text PRIMARY KEY,
      processed_at timestamptz NOT NULL DEFAULT now()
    )`,
    (q) => createOutboxTable(q, 'messaging'),
  ],
  down: [
    (q) => dropOutboxTable(q, 'messaging'),
    ...[
      'processed_events',
      'opt_outs',
      'idempotency_keys',
      'capacity_reservations',
      'conversations',
      'inbound_messages',
      'service_windows',
      'pending_status_reports',
      'message_logs',
      'templates',
      'channel_accounts',
    ].map((table) => `DROP TABLE messaging.${table}`),
  ],
});
