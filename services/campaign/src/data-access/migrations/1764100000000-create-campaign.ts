import { createIdempotencyTable, createOutboxTable, dropOutboxTable, sqlMigration } from '@bm/platform';

export const CreateCampaign1764100000000 = sqlMigration('CreateCampaign1764100000000', {
  up: [
    // One row per campaign; a split campaign is one row per part, tied by campaign_group_id.
    `CREATE TABLE campaign.campaigns (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      channel_account_id text NOT NULL,
      name text,
      status text NOT NULL,
      message_type text NOT NULL DEFAULT 'template',
      template_name text NOT NULL,
      template_language text NOT NULL,
      template_components jsonb NOT NULL,
      template_params jsonb NOT NULL DEFAULT '[]'::jsonb,
      header_media jsonb,
      requested_count integer NOT NULL,
      total_count integer NOT NULL DEFAULT 0,
      scheduled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      failure_reason text,
      campaign_group_id text,
      part_number integer,
      parts_total integer,
      idempotency_key text,
      upload_id text,
      upload_offset integer NOT NULL DEFAULT 0,
      next_check_at timestamptz
    )`,
    `CREATE UNIQUE INDEX campaigns_idempotency_idx ON campaign.campaigns (tenant_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL`,
    `CREATE INDEX campaigns_active_idx ON campaign.campaigns (status, scheduled_at)
        WHERE status IN ('pending', 'scheduled', 'processing', 'throttled')`,
    `CREATE INDEX campaigns_group_idx ON campaign.campaigns (campaign_group_id, part_number)`,
    `CREATE INDEX campaigns_upload_idx ON campaign.campaigns (upload_id) WHERE upload_id IS NOT NULL`,
    // The submitted list, kept as received until preparation has written its recipients (then deleted).
    // Stored uncompressed: writing it is on the path of the 202, compressing it is not worth the time.
    `CREATE TABLE campaign.uploads (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `ALTER TABLE campaign.uploads ALTER COLUMN body SET STORAGE EXTERNAL`,
    `CREATE TABLE campaign.recipients (
      id bigserial PRIMARY KEY,
      campaign_id text NOT NULL REFERENCES campaign.campaigns(id),
      phone text NOT NULL,
      name text,
      variables jsonb,
      status text NOT NULL DEFAULT 'pending',
      invalid boolean NOT NULL DEFAULT false,
      attempt integer NOT NULL DEFAULT 0,
      requested_at timestamptz,
      message_log_id bigint,
      error_message text,
      sent_at timestamptz
    )`,
    `CREATE UNIQUE INDEX recipients_phone_idx ON campaign.recipients (campaign_id, phone)`,
    `CREATE INDEX recipients_status_idx ON campaign.recipients (campaign_id, status, id)`,
    `CREATE INDEX recipients_unrequested_idx ON campaign.recipients (campaign_id, id)
        WHERE status = 'pending' AND requested_at IS NULL`,
    // The tenant's opted-out contacts: the API's data, and the filter of every campaign list.
    `CREATE TABLE campaign.opt_outs (
      tenant_id integer NOT NULL,
      phone text NOT NULL,
      source text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, phone)
    )`,
    `CREATE INDEX opt_outs_recent_idx ON campaign.opt_outs (tenant_id, created_at DESC, phone)`,
    (q) => createIdempotencyTable(q, 'campaign'),
    (q) => createOutboxTable(q, 'campaign'),
  ],
  down: [
    (q) => dropOutboxTable(q, 'campaign'),
    ...['idempotency_keys', 'opt_outs', 'recipients', 'uploads', 'campaigns'].map(
      (table) => `DROP TABLE IF EXISTS campaign.${table}`,
    ),
  ],
});
