import { sqlMigration } from '@bm/platform';

/*
 * A delivery is written once, and updated once per attempt (issue 36). It carries the event's body and trace
 * itself, so no events row is written; its attempts are kept in it (`attempts`, a JSON array the pass that
 * records an attempt appends to) instead of a row per attempt; `last_error_at` finds a tenant's latest failure.
 * A domain event consumed twice still makes one delivery per endpoint: the unique index of first deliveries on
 * (event_id, endpoint_id) (a redelivery the client asks for is another row of the same event).
 *
 * Expand, then contract: the functions of 1766740000000 stay for the previous release's pods during a rollout.
 * They still write events and delivery_attempts rows, and this release reads both (the body of a delivery
 * without one, the attempts of either kind); a later release drops them.
 */

const STORE_DELIVERIES = `
CREATE FUNCTION dispatcher.store_deliveries(
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
    ), fresh AS (
      -- An event already delivered to an endpoint (the domain event consumed again) is not delivered again.
      SELECT m.*, CASE WHEN m.rank = 1 THEN m.given_id
                       ELSE dispatcher.random_ulid(left(m.given_id, 10)) END AS delivery_id,
             row_number() OVER (PARTITION BY m.endpoint_id ORDER BY m.n) AS k
        FROM matched m
       WHERE NOT EXISTS (SELECT 1 FROM dispatcher.deliveries d
                          WHERE d.event_id = m.id AND d.endpoint_id = m.endpoint_id AND d.redelivery_of IS NULL)
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
      INSERT INTO dispatcher.deliveries
        (id, event_id, tenant_id, event, endpoint_id, body, traceparent, lease_until, lease_token)
      SELECT d.delivery_id, d.id, d.tenant_id, d.event, d.endpoint_id, d.body, d.traceparent,
             CASE WHEN d.lease THEN now() + lease_ms * interval '1 millisecond' END,
             CASE WHEN d.lease THEN token END
        FROM decided d
      -- Two replicas storing the same event at once: one row, the other's insert is nothing.
      ON CONFLICT (event_id, endpoint_id) WHERE redelivery_of IS NULL DO NOTHING
      RETURNING id, event_id, lease_token IS NOT NULL AS leased
    )
    SELECT i.id, i.event_id, i.leased, d.url, d.secret_sealed, d.previous
      FROM inserted i JOIN decided d ON d.delivery_id = i.id;
END
$fn$`;

/*
 * record_and_claim of 1766740000000, writing each attempt into its delivery: the update that records the outcome
 * appends the attempt to `attempts` (no delivery_attempts row), and a claim takes the body and trace from the
 * delivery (from the events row for a delivery the previous release stored).
 */
const RECORD_ATTEMPTS_AND_CLAIM = `
CREATE FUNCTION dispatcher.record_attempts_and_claim(
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
               completed_at = CASE WHEN i.status = 'pending' THEN NULL ELSE now() END,
               attempts = d.attempts || jsonb_build_array(jsonb_build_object(
                 'attempt', d.attempt_count + 1, 'url', i.url, 'at', i.at, 'duration_ms', i.duration_ms,
                 'http_status', i.http_status, 'error', i.error, 'response_excerpt', i.excerpt)),
               last_error_at = CASE WHEN i.error IS NULL THEN d.last_error_at ELSE i.at END
          FROM input i
         WHERE d.id = i.delivery_id AND d.lease_token = i.lease_token
        RETURNING d.id
      )
      SELECT 'recorded'::text, u.id, NULL::int, NULL::text, NULL::text, NULL::text, NULL::int,
             NULL::text, NULL::text, NULL::text, NULL::timestamptz
        FROM updated u;
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
          FROM picked LEFT JOIN dispatcher.endpoints p ON p.id = picked.endpoint_id AND p.enabled
         WHERE d.id = picked.id
        RETURNING d.id, d.tenant_id, d.event_id,
                  coalesce(d.body, (SELECT e.body FROM dispatcher.events e WHERE e.id = d.event_id)) AS body,
                  coalesce(d.traceparent,
                           (SELECT e.traceparent FROM dispatcher.events e WHERE e.id = d.event_id)) AS traceparent,
                  d.attempt_count, p.url, p.secret_sealed,
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

/** The two functions as this migration made them, to be made again (CREATE OR REPLACE) by a later one's down. */
export const DELIVERY_WRITTEN_ONCE_FUNCTIONS = {
  store: STORE_DELIVERIES.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'),
  claim: RECORD_ATTEMPTS_AND_CLAIM.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'),
};

export const DeliveryWrittenOnce1767100000000 = sqlMigration('DeliveryWrittenOnce1767100000000', {
  up: [
    // A delivery no longer needs an events row (the previous release's pods still write one).
    `ALTER TABLE dispatcher.deliveries DROP CONSTRAINT deliveries_event_id_fkey`,
    `ALTER TABLE dispatcher.deliveries
       ADD COLUMN body text,
       ADD COLUMN traceparent text,
       ADD COLUMN attempts jsonb NOT NULL DEFAULT '[]'::jsonb,
       ADD COLUMN last_error_at timestamptz`,
    `CREATE UNIQUE INDEX deliveries_first_per_endpoint_idx ON dispatcher.deliveries (event_id, endpoint_id)
        WHERE redelivery_of IS NULL`,
    `CREATE INDEX deliveries_last_error_idx ON dispatcher.deliveries (tenant_id, last_error_at DESC)
        WHERE last_error_at IS NOT NULL`,
    STORE_DELIVERIES,
    RECORD_ATTEMPTS_AND_CLAIM,
  ],
  down: [
    `DROP FUNCTION dispatcher.record_attempts_and_claim(int, int, bigint, text, boolean, text[], text[], text[],
       bigint[], text[], timestamptz[], int[], int[], text[], text[])`,
    `DROP FUNCTION dispatcher.store_deliveries(text[], int[], text[], text[], text[], text[], text[], int, int,
       bigint, text)`,
    `DROP INDEX dispatcher.deliveries_last_error_idx`,
    `DROP INDEX dispatcher.deliveries_first_per_endpoint_idx`,
    // What the previous release reads: each delivery's event, and its attempts as rows.
    `INSERT INTO dispatcher.events (id, tenant_id, event, body, traceparent)
     SELECT DISTINCT ON (d.event_id) d.event_id, d.tenant_id, d.event, d.body, d.traceparent
       FROM dispatcher.deliveries d WHERE d.body IS NOT NULL
     ON CONFLICT (id) DO NOTHING`,
    `ALTER TABLE dispatcher.deliveries ADD CONSTRAINT deliveries_event_id_fkey
       FOREIGN KEY (event_id) REFERENCES dispatcher.events(id)`,
    `INSERT INTO dispatcher.delivery_attempts
       (delivery_id, tenant_id, attempt, url, at, duration_ms, http_status, error, response_excerpt)
     SELECT d.id, d.tenant_id, (a->>'attempt')::int, a->>'url', (a->>'at')::timestamptz, (a->>'duration_ms')::int,
            (a->>'http_status')::int, a->>'error', a->>'response_excerpt'
       FROM dispatcher.deliveries d CROSS JOIN LATERAL jsonb_array_elements(d.attempts) a`,
    `ALTER TABLE dispatcher.deliveries DROP COLUMN body, DROP COLUMN traceparent, DROP COLUMN attempts,
       DROP COLUMN last_error_at`,
  ],
});
