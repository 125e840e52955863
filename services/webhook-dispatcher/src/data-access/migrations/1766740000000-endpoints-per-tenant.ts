import { sqlMigration } from '@bm/platform';
import { RECORD_AND_CLAIM as RECORD_AND_CLAIM_BY_TENANT } from './1764000000004-record-and-claim';
import { STORE_AND_LEASE as STORE_AND_LEASE_BY_TENANT } from './1764000000005-store-and-lease';

/*
 * Several endpoints per tenant. An endpoint gets an id (a ULID) and its own filter, secrets, description and an
 * enabled flag; the tenant's first one is its default, the endpoint of /api/v1/webhooks/settings (the rows that
 * exist become their tenant's default). A delivery belongs to one endpoint: the per-endpoint limit, the claim's
 * skip scan and the leases are keyed by endpoint_id instead of tenant_id, so one failing endpoint of a tenant does
 * not hold up its others. An event is still stored once (its body once); each endpoint that takes it gets one
 * delivery row.
 */

/** A random ULID-shaped id (Crockford base 32), after `prefix` (a ULID's 10 time characters, say). */
const RANDOM_ULID = `
CREATE FUNCTION dispatcher.random_ulid(prefix text) RETURNS text LANGUAGE sql VOLATILE AS $fn$
  SELECT prefix || string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 32)::int, 1), '')
    FROM generate_series(1, 26 - length(prefix))
$fn$`;

/*
 * The claim of 1764000000004, by endpoint: endpoints with pending deliveries found by a skip scan of
 * (endpoint_id, next_attempt_at); a claimed delivery carries its endpoint's URL and secrets, or a null URL when the
 * endpoint was removed or disabled meanwhile (the attempt then fails at once, without a request).
 */
const RECORD_AND_CLAIM = `
CREATE OR REPLACE FUNCTION dispatcher.record_and_claim(
  claim_limit int, per_endpoint int, lease_ms bigint, token text, want_next_due boolean,
  f_delivery_id text[], f_lease_token text[], f_status text[], f_retry_in_ms bigint[], f_url text[],
  f_at timestamptz[], f_duration_ms int[], f_http_status int[], f_error text[], f_excerpt text[])
RETURNS TABLE (kind text, id text, tenant_id int, event_id text, body text, traceparent text, attempt_count int,
               url text, secret_sealed text, previous_secret_sealed text, next_due_at timestamptz)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  claimed_any boolean := false;
BEGIN
  IF cardinality(f_delivery_id) > 0 THEN
    RETURN QUERY
      WITH input AS (
        SELECT * FROM unnest(f_delivery_id, f_lease_token, f_status, f_retry_in_ms, f_url, f_at, f_duration_ms,
                             f_http_status, f_error, f_excerpt)
          AS i(delivery_id, lease_token, status, retry_in_ms, url, at, duration_ms, http_status, error, excerpt)
      ), updated AS (
        UPDATE dispatcher.deliveries d
           SET status = i.status, attempt_count = d.attempt_count + 1,
               next_attempt_at = now() + i.retry_in_ms * interval '1 millisecond',
               lease_until = NULL, lease_token = NULL, updated_at = now(),
               completed_at = CASE WHEN i.status = 'pending' THEN NULL ELSE now() END
          FROM input i
         WHERE d.id = i.delivery_id AND d.lease_token = i.lease_token
        RETURNING d.id, d.tenant_id, d.attempt_count
      ), recorded AS (
        INSERT INTO dispatcher.delivery_attempts
          (delivery_id, tenant_id, attempt, url, at, duration_ms, http_status, error, response_excerpt)
        SELECT u.id, u.tenant_id, u.attempt_count, i.url, i.at, i.duration_ms, i.http_status, i.error, i.excerpt
          FROM updated u JOIN input i ON i.delivery_id = u.id
        RETURNING delivery_id
      )
      SELECT 'recorded'::text, r.delivery_id, NULL::int, NULL::text, NULL::text, NULL::text, NULL::int,
             NULL::text, NULL::text, NULL::text, NULL::timestamptz
        FROM recorded r;
  END IF;
  IF claim_limit > 0 THEN
    PERFORM pg_advisory_xact_lock(hashtext('dispatcher.claim'));
    RETURN QUERY
      WITH RECURSIVE walk AS (
        (SELECT endpoint_id FROM dispatcher.deliveries
          WHERE status = 'pending' AND endpoint_id IS NOT NULL ORDER BY endpoint_id LIMIT 1)
        UNION ALL
        SELECT (SELECT d.endpoint_id FROM dispatcher.deliveries d
                 WHERE d.status = 'pending' AND d.endpoint_id > w.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
          FROM walk w WHERE w.endpoint_id IS NOT NULL
      ), busy AS (
        SELECT endpoint_id, count(*)::int AS n FROM dispatcher.deliveries
         WHERE status = 'pending' AND lease_until > now() GROUP BY endpoint_id
      ), due AS (
        SELECT x.id, x.next_attempt_at
          FROM walk w LEFT JOIN busy b ON b.endpoint_id = w.endpoint_id
         CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at FROM dispatcher.deliveries d
            WHERE d.endpoint_id = w.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now()
              AND (d.lease_until IS NULL OR d.lease_until <= now())
            ORDER BY d.next_attempt_at LIMIT greatest(0, per_endpoint - coalesce(b.n, 0))
         ) x
         WHERE w.endpoint_id IS NOT NULL
      ), picked AS (
        SELECT d.id, d.endpoint_id FROM dispatcher.deliveries d JOIN due ON due.id = d.id
         WHERE d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= now())
         ORDER BY due.next_attempt_at, d.id LIMIT claim_limit
           FOR UPDATE OF d SKIP LOCKED
      ), claimed AS (
        UPDATE dispatcher.deliveries d
           SET lease_until = now() + lease_ms * interval '1 millisecond', lease_token = token, updated_at = now()
          FROM picked LEFT JOIN dispatcher.endpoints p ON p.id = picked.endpoint_id AND p.enabled,
               dispatcher.events e
         WHERE d.id = picked.id AND e.id = d.event_id
        RETURNING d.id, d.tenant_id, d.event_id, e.body, e.traceparent, d.attempt_count, p.url, p.secret_sealed,
                  CASE WHEN p.previous_secret_expires_at > now() THEN p.previous_secret_sealed END AS previous
      )
      SELECT 'claimed'::text, c.id, c.tenant_id, c.event_id, c.body, c.traceparent, c.attempt_count, c.url,
             c.secret_sealed, c.previous, NULL::timestamptz
        FROM claimed c;
    claimed_any := FOUND;
  END IF;
  IF want_next_due AND NOT claimed_any THEN
    RETURN QUERY
      SELECT 'next_due'::text, NULL::text, NULL::int, NULL::text, NULL::text, NULL::text, NULL::int, NULL::text,
             NULL::text, NULL::text,
             least(min(d.next_attempt_at) FILTER (WHERE d.next_attempt_at > now()),
                   min(d.lease_until) FILTER (WHERE d.lease_until > now()))
        FROM dispatcher.deliveries d WHERE d.status = 'pending';
  END IF;
END
$fn$`;

/*
 * The store of 1764000000005, fanned out: each event goes to every enabled endpoint of its tenant with a URL whose
 * filter admits it (or, for a test ping, to the one endpoint it names, whatever its filter), one delivery per
 * endpoint. The event (its body) is stored once. The tenant's default endpoint's delivery, or else its oldest
 * endpoint's, takes the delivery id given; the others get a fresh one with the same time part. The lease rules are
 * the claim's, per endpoint.
 */
const STORE_AND_LEASE = `
CREATE FUNCTION dispatcher.store_and_lease(
  e_id text[], e_tenant_id int[], e_event text[], e_body text[], e_delivery_id text[], e_endpoint_id text[],
  e_traceparent text[], lease_limit int, per_endpoint int, lease_ms bigint, token text)
RETURNS TABLE (id text, event_id text, leased boolean, url text, secret_sealed text, previous_secret_sealed text)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  IF lease_limit > 0 THEN
    PERFORM pg_advisory_xact_lock(hashtext('dispatcher.claim'));
  END IF;
  RETURN QUERY
    WITH input AS (
      SELECT * FROM unnest(e_id, e_tenant_id, e_event, e_body, e_delivery_id, e_endpoint_id, e_traceparent)
                    WITH ORDINALITY AS i(id, tenant_id, event, body, delivery_id, target, traceparent, n)
    ), matched AS (
      SELECT i.id, i.tenant_id, i.event, i.body, i.traceparent, i.delivery_id AS given_id, i.n,
             p.id AS endpoint_id, p.url, p.secret_sealed,
             CASE WHEN p.previous_secret_expires_at > now() THEN p.previous_secret_sealed END AS previous,
             row_number() OVER (PARTITION BY i.n ORDER BY p.is_default DESC, p.created_at, p.id) AS rank
        FROM input i JOIN dispatcher.endpoints p ON p.tenant_id = i.tenant_id
       WHERE p.url IS NOT NULL AND p.enabled
         AND CASE WHEN i.target IS NULL THEN p.events IS NULL OR i.event = ANY(p.events)
                  ELSE p.id = i.target END
    ), admitted AS (
      SELECT m.*, CASE WHEN m.rank = 1 THEN m.given_id
                       ELSE dispatcher.random_ulid(left(m.given_id, 10)) END AS delivery_id
        FROM matched m
    ), stored AS (
      INSERT INTO dispatcher.events (id, tenant_id, event, body, traceparent)
      SELECT a.id, a.tenant_id, a.event, a.body, a.traceparent FROM admitted a WHERE a.rank = 1
      ON CONFLICT (id) DO NOTHING
      RETURNING id
    ), fresh AS (
      SELECT a.*, row_number() OVER (PARTITION BY a.endpoint_id ORDER BY a.n) AS k
        FROM admitted a JOIN stored s ON s.id = a.id
    ), free AS (
      SELECT t.endpoint_id,
             CASE WHEN lease_limit <= 0 OR EXISTS (
                    SELECT 1 FROM dispatcher.deliveries d
                     WHERE d.endpoint_id = t.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now()
                       AND (d.lease_until IS NULL OR d.lease_until <= now()))
                  THEN 0
                  ELSE per_endpoint - (SELECT count(*)::int FROM dispatcher.deliveries d
                                        WHERE d.endpoint_id = t.endpoint_id AND d.status = 'pending'
                                          AND d.lease_until > now())
             END AS slots
        FROM (SELECT DISTINCT endpoint_id FROM fresh) t
    ), eligible AS (
      SELECT f.*, f.k <= fr.slots AS fits FROM fresh f JOIN free fr ON fr.endpoint_id = f.endpoint_id
    ), decided AS (
      SELECT e.*, e.fits AND row_number() OVER (PARTITION BY e.fits ORDER BY e.n, e.rank) <= lease_limit AS lease
        FROM eligible e
    ), inserted AS (
      INSERT INTO dispatcher.deliveries (id, event_id, tenant_id, event, endpoint_id, lease_until, lease_token)
      SELECT d.delivery_id, d.id, d.tenant_id, d.event, d.endpoint_id,
             CASE WHEN d.lease THEN now() + lease_ms * interval '1 millisecond' END,
             CASE WHEN d.lease THEN token END
        FROM decided d
      RETURNING id, event_id, lease_token IS NOT NULL AS leased
    )
    SELECT i.id, i.event_id, i.leased, d.url, d.secret_sealed, d.previous
      FROM inserted i JOIN decided d ON d.delivery_id = i.id;
END
$fn$`;

export const EndpointsPerTenant1766740000000 = sqlMigration('EndpointsPerTenant1766740000000', {
  up: [
    RANDOM_ULID,
    `ALTER TABLE dispatcher.endpoints
       ADD COLUMN id text,
       ADD COLUMN is_default boolean NOT NULL DEFAULT false,
       ADD COLUMN description text,
       ADD COLUMN enabled boolean NOT NULL DEFAULT true`,
    // The endpoint that exists is its tenant's default (the settings endpoint); its id a valid ULID (time 0).
    `UPDATE dispatcher.endpoints SET id = dispatcher.random_ulid('0'), is_default = true`,
    `ALTER TABLE dispatcher.endpoints DROP CONSTRAINT endpoints_pkey, ADD PRIMARY KEY (id)`,
    `CREATE UNIQUE INDEX endpoints_default_idx ON dispatcher.endpoints (tenant_id) WHERE is_default`,
    `CREATE INDEX endpoints_tenant_idx ON dispatcher.endpoints (tenant_id, created_at)`,
    `ALTER TABLE dispatcher.deliveries ADD COLUMN endpoint_id text`,
    `UPDATE dispatcher.deliveries d SET endpoint_id = p.id FROM dispatcher.endpoints p
      WHERE p.tenant_id = d.tenant_id`,
    // None should exist (a delivery is only stored for an endpoint): one without would never be claimed.
    `UPDATE dispatcher.deliveries SET status = 'failed', completed_at = now(), lease_until = NULL,
            lease_token = NULL WHERE endpoint_id IS NULL AND status = 'pending'`,
    `CREATE INDEX deliveries_by_endpoint_due_idx ON dispatcher.deliveries (endpoint_id, next_attempt_at)
        WHERE status = 'pending'`,
    `CREATE INDEX deliveries_by_endpoint_leased_idx ON dispatcher.deliveries (endpoint_id)
        WHERE status = 'pending' AND lease_until IS NOT NULL`,
    `DROP INDEX dispatcher.deliveries_endpoint_due_idx`,
    `DROP INDEX dispatcher.deliveries_leased_idx`,
    RECORD_AND_CLAIM,
    `DROP FUNCTION dispatcher.store_and_lease(text[], int[], text[], text[], text[], boolean[], text[], int, int,
       bigint, text)`,
    STORE_AND_LEASE,
  ],
  down: [
    `DROP FUNCTION dispatcher.store_and_lease(text[], int[], text[], text[], text[], text[], text[], int, int,
       bigint, text)`,
    STORE_AND_LEASE_BY_TENANT,
    `DROP FUNCTION dispatcher.record_and_claim(int, int, bigint, text, boolean, text[], text[], text[], bigint[],
       text[], timestamptz[], int[], int[], text[], text[])`,
    RECORD_AND_CLAIM_BY_TENANT,
    `CREATE INDEX deliveries_endpoint_due_idx ON dispatcher.deliveries (tenant_id, next_attempt_at)
        WHERE status = 'pending'`,
    `CREATE INDEX deliveries_leased_idx ON dispatcher.deliveries (tenant_id)
        WHERE status = 'pending' AND lease_until IS NOT NULL`,
    `DROP INDEX dispatcher.deliveries_by_endpoint_due_idx`,
    `DROP INDEX dispatcher.deliveries_by_endpoint_leased_idx`,
    `ALTER TABLE dispatcher.deliveries DROP COLUMN endpoint_id`,
    `DELETE FROM dispatcher.endpoints WHERE NOT is_default`,
    `DROP INDEX dispatcher.endpoints_tenant_idx`,
    `DROP INDEX dispatcher.endpoints_default_idx`,
    `ALTER TABLE dispatcher.endpoints DROP CONSTRAINT endpoints_pkey, ADD PRIMARY KEY (tenant_id)`,
    `ALTER TABLE dispatcher.endpoints DROP COLUMN id, DROP COLUMN is_default, DROP COLUMN description,
       DROP COLUMN enabled`,
    `DROP FUNCTION dispatcher.random_ulid(text)`,
  ],
});
