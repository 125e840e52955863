import { sqlMigration } from '@bm/platform';

/*
 * The worker's one statement per pass: records the attempts finished since the last pass (each only while its lease
 * is still ours), then takes the claim lock and leases due deliveries. Before, a pass was four round trips (BEGIN,
 * the advisory lock, the claim, COMMIT) and the attempts a fifth statement of their own, each parsed and planned on
 * every call; PL/pgSQL keeps the plans of its statements for the session. The function is VOLATILE, so each of its
 * statements takes a fresh snapshot: the claim sees every claim committed before the lock was granted, and the
 * leases this call just gave back. The lock is transaction-scoped: it is held until the calling statement commits.
 *
 * The claim itself is unchanged (1764000000001): endpoints found by a skip scan of (tenant_id, next_attempt_at), one
 * probe per endpoint; each endpoint below its limit gives its oldest due deliveries up to its free slots; the rows
 * are locked with SKIP LOCKED and the lease hides them from other claims until it expires.
 */
export const RECORD_AND_CLAIM = `
CREATE FUNCTION dispatcher.record_and_claim(
  claim_limit int, per_endpoint int, lease_ms bigint, token text, want_next_due boolean,
  f_delivery_id text[], f_lease_token text[], f_status text[], f_retry_in_ms bigint[], f_url text[],
  f_at timestamptz[], f_duration_ms int[], f_http_status int[], f_error text[], f_excerpt text[])
RETURNS TABLE (kind text, id text, tenant_id int, event_id text, body text, traceparent text, attempt_count int,
               url text, secret_sealed text, previous_secret_sealed text, next_due_at timestamptz)
LANGUAGE plpgsql
-- The plans are the same index walks whatever the arguments, but the planner prices a generic plan above a custom
-- one and would plan every call again (about 0.5 ms for the claim, more than it takes to run).
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
      WITH RECURSIVE endpoints AS (
        (SELECT tenant_id FROM dispatcher.deliveries WHERE status = 'pending' ORDER BY tenant_id LIMIT 1)
        UNION ALL
        SELECT (SELECT d.tenant_id FROM dispatcher.deliveries d
                 WHERE d.status = 'pending' AND d.tenant_id > e.tenant_id ORDER BY d.tenant_id LIMIT 1)
          FROM endpoints e WHERE e.tenant_id IS NOT NULL
      ), busy AS (
        SELECT tenant_id, count(*)::int AS n FROM dispatcher.deliveries
         WHERE status = 'pending' AND lease_until > now() GROUP BY tenant_id
      ), due AS (
        SELECT x.id, x.next_attempt_at
          FROM endpoints e LEFT JOIN busy b ON b.tenant_id = e.tenant_id
         CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at FROM dispatcher.deliveries d
            WHERE d.tenant_id = e.tenant_id AND d.status = 'pending' AND d.next_attempt_at <= now()
              AND (d.lease_until IS NULL OR d.lease_until <= now())
            ORDER BY d.next_attempt_at LIMIT greatest(0, per_endpoint - coalesce(b.n, 0))
         ) x
         WHERE e.tenant_id IS NOT NULL
      ), picked AS (
        SELECT d.id FROM dispatcher.deliveries d JOIN due ON due.id = d.id
         WHERE d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= now())
         ORDER BY due.next_attempt_at, d.id LIMIT claim_limit
           FOR UPDATE OF d SKIP LOCKED
      ), claimed AS (
        UPDATE dispatcher.deliveries d
           SET lease_until = now() + lease_ms * interval '1 millisecond', lease_token = token, updated_at = now()
          FROM picked, dispatcher.events e LEFT JOIN dispatcher.endpoints p ON p.tenant_id = e.tenant_id
         WHERE d.id = picked.id AND e.id = d.event_id
        RETURNING d.id, d.tenant_id, d.event_id, e.body, e.traceparent, d.attempt_count, p.url, p.secret_sealed,
                  CASE WHEN p.previous_secret_expires_at > now() THEN p.previous_secret_sealed END AS previous
      )
      SELECT 'claimed'::text, c.id, c.tenant_id, c.event_id, c.body, c.traceparent, c.attempt_count, c.url,
             c.secret_sealed, c.previous, NULL::timestamptz
        FROM claimed c;
    claimed_any := FOUND;
  END IF;
  -- Asked by a worker about to go idle when nothing was claimed: when it should look again (a retry falls due or
  -- a lease runs out), so that it needs no statement of its own.
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

export const RecordAndClaim1764000000004 = sqlMigration('RecordAndClaim1764000000004', {
  up: [RECORD_AND_CLAIM],
  down: [
    `DROP FUNCTION dispatcher.record_and_claim(int, int, bigint, text, boolean, text[], text[], text[], bigint[], text[],
       timestamptz[], int[], int[], text[], text[])`,
  ],
});
