import { sqlMigration } from '@bm/platform';
import { DELIVERY_WRITTEN_ONCE_FUNCTIONS } from './1767100000000-delivery-written-once';

/*
 * The two functions on the hot path keep one generic plan per connection (force_generic_plan), made at their first
 * call, when `deliveries` may be nearly empty and, with autovacuum off or behind, never analyzed. Such plans
 * scanned: an update that hashed the whole table to find a batch's deliveries by id, a claim that scanned it, an
 * anti join that read every first delivery ever stored to find the few events already stored, and a count of the
 * deliveries in flight that walked an entry for every lease ever taken (bitmap scans never mark the dead ones).
 *
 * Every input of theirs is a batch of at most a few hundred rows, and each lookup has an index: so they plan by
 * index only, whatever the statistics say or do not say. Nested loops over plain index scans (which mark the index
 * entries of dead rows, so later scans skip them, vacuumed or not); the anti join and the count of deliveries in
 * flight as one lookup per event and per endpoint; the claimed deliveries found by their ids. Same arguments, same
 * answers as 1767100000000's (a claim takes the most overdue first; one that another replica holds is skipped,
 * and the next claim takes more).
 */

/** Both functions' settings: one generic plan per connection, made of index lookups only. */
const PLAN_BY_INDEX = `SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off`;

const STORE_DELIVERIES = `
CREATE OR REPLACE FUNCTION dispatcher.store_deliveries(
  e_id text[], e_tenant_id int[], e_event text[], e_body text[], e_delivery_id text[], e_endpoint_id text[],
  e_traceparent text[], lease_limit int, per_endpoint int, lease_ms bigint, token text)
RETURNS TABLE (id text, event_id text, leased boolean, url text, secret_sealed text, previous_secret_sealed text)
LANGUAGE plpgsql
${PLAN_BY_INDEX}
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
        -- One lookup per event (LIMIT keeps it a lookup): never a join against every delivery ever stored.
        LEFT JOIN LATERAL (SELECT true AS stored FROM dispatcher.deliveries d
                            WHERE d.event_id = m.id AND d.endpoint_id = m.endpoint_id AND d.redelivery_of IS NULL
                            LIMIT 1) s ON true
       WHERE s.stored IS NULL
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

const RECORD_ATTEMPTS_AND_CLAIM = `
CREATE OR REPLACE FUNCTION dispatcher.record_attempts_and_claim(
  claim_limit int, per_endpoint int, lease_ms bigint, token text, want_next_due boolean,
  f_delivery_id text[], f_lease_token text[], f_status text[], f_retry_in_ms bigint[], f_url text[],
  f_at timestamptz[], f_duration_ms int[], f_http_status int[], f_error text[], f_excerpt text[])
RETURNS TABLE (kind text, id text, tenant_id int, event_id text, body text, traceparent text, attempt_count int,
               url text, secret_sealed text, previous_secret_sealed text, next_due_at timestamptz)
LANGUAGE plpgsql
${PLAN_BY_INDEX}
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
      ), due AS (
        SELECT x.id, x.next_attempt_at
          FROM walk w
         -- Each endpoint's deliveries in flight, counted by its own index entries (not every lease ever taken).
         CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM dispatcher.deliveries d
                              WHERE d.endpoint_id = w.endpoint_id AND d.status = 'pending'
                                AND d.lease_until > now()) b
         CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at FROM dispatcher.deliveries d
            WHERE d.endpoint_id = w.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now()
              AND (d.lease_until IS NULL OR d.lease_until <= now())
            ORDER BY d.next_attempt_at LIMIT greatest(0, per_endpoint - b.n)
         ) x
         WHERE w.endpoint_id IS NOT NULL
      ), picked AS (
        -- The most overdue first, found by id (the array is made once): never a join the plan could turn around.
        SELECT d.id, d.endpoint_id FROM dispatcher.deliveries d
         WHERE d.id = ANY(ARRAY(SELECT due.id FROM due ORDER BY due.next_attempt_at, due.id LIMIT claim_limit))
           AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= now())
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

export const PlansByIndex1767200000000 = sqlMigration('PlansByIndex1767200000000', {
  up: [STORE_DELIVERIES, RECORD_ATTEMPTS_AND_CLAIM],
  // 1767100000000's functions, as they were.
  down: [DELIVERY_WRITTEN_ONCE_FUNCTIONS.store, DELIVERY_WRITTEN_ONCE_FUNCTIONS.claim],
});
