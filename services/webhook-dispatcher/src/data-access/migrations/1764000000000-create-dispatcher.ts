import { sqlMigration } from '@bm/platform';

/** Endpoints (one per tenant), the events to deliver, every delivery and every attempt. */
export const CreateDispatcher1764000000000 = sqlMigration('CreateDispatcher1764000000000', {
  up: [
    `CREATE TABLE dispatcher.endpoints (
      tenant_id integer PRIMARY KEY,
      url text,
      events text[],
      secret_sealed text,
      previous_secret_sealed text,
      previous_secret_expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    // The body is kept as text: every attempt sends exactly these bytes.
    `CREATE TABLE dispatcher.events (
      id text PRIMARY KEY,
      tenant_id integer NOT NULL,
      event text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE dispatcher.deliveries (
      id text PRIMARY KEY,
      event_id text NOT NULL REFERENCES dispatcher.events(id),
      tenant_id integer NOT NULL,
      event text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempt_count integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      lease_until timestamptz,
      lease_token text,
      redelivery_of text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`,
    // The claim walks due deliveries in time order; leased ones count toward their endpoint's limit.
    `CREATE INDEX deliveries_due_idx ON dispatcher.deliveries (next_attempt_at, id) WHERE status = 'pending'`,
    `CREATE INDEX deliveries_leased_idx ON dispatcher.deliveries (tenant_id)
        WHERE status = 'pending' AND lease_until IS NOT NULL`,
    `CREATE INDEX deliveries_tenant_idx ON dispatcher.deliveries (tenant_id, created_at DESC, id DESC)`,
    `CREATE INDEX deliveries_event_idx ON dispatcher.deliveries (event_id)`,
    `CREATE TABLE dispatcher.delivery_attempts (
      id bigserial PRIMARY KEY,
      delivery_id text NOT NULL REFERENCES dispatcher.deliveries(id),
      tenant_id integer NOT NULL,
      attempt integer NOT NULL,
      url text,
      at timestamptz NOT NULL,
      duration_ms integer,
      http_status integer,
      error text,
      response_excerpt text,
      UNIQUE (delivery_id, attempt)
    )`,
    `CREATE INDEX delivery_attempts_errors_idx ON dispatcher.delivery_attempts (tenant_id, id DESC)
        WHERE error IS NOT NULL`,
  ],
  down: [
    `DROP TABLE dispatcher.delivery_attempts`,
    `DROP TABLE dispatcher.deliveries`,
    `DROP TABLE dispatcher.events`,
    `DROP TABLE dispatcher.endpoints`,
  ],
});
