import { sqlMigration } from '@bm/platform';

/*
 * Stores the events consumed together, each with its first delivery (only for a tenant whose endpoint has a URL and
 * whose filter admits the event; an event id already stored is dropped), and leases the new deliveries the worker
 * has room for as they are inserted: a fresh delivery no longer waits for a claim, nor is its row written a second
 * time to lease it. Under the claim's advisory lock (taken first, so the statement after it sees every claim
 * committed before), the same rules as the claim: at most the per-endpoint limit leased across replicas, and an
 * endpoint with older due deliveries still waiting leases nothing here (those go first, by the claim). With no room
 * (lease_limit 0) no lock is taken and the deliveries wait for the claim, as before.
 */
export const STORE_AND_LEASE = `
CREATE FUNCTION dispatcher.store_and_lease(
  e_id text[], e_tenant_id int[], e_event text[], e_body text[], e_delivery_id text[], e_ignore_filter boolean[],
  e_traceparent text[], lease_limit int, per_endpoint int, lease_ms bigint, token text)
RETURNS TABLE (id text, event_id text, leased boolean, url text, secret_sealed text, previous_secret_sealed text)
LANGUAGE plpgsql
-- The plans are the same index walks whatever the arguments, but the planner prices a generic plan above a custom
-- one and would plan every call again (about 0.5 ms for the claim, more than it takes to run).
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  IF lease_limit > 0 THEN
    PERFORM pg_advisory_xact_lock(hashtext('dispatcher.claim'));
  END IF;
  RETURN QUERY
    WITH input AS (
      SELECT * FROM unnest(e_id, e_tenant_id, e_event, e_body, e_delivery_id, e_ignore_filter, e_traceparent)
                    WITH ORDINALITY AS i(id, tenant_id, event, body, delivery_id, ignore_filter, traceparent, n)
    ), admitted AS (
      SELECT i.*, p.url, p.secret_sealed,
             CASE WHEN p.previous_secret_expires_at > now() THEN p.previous_secret_sealed END AS previous
        FROM input i JOIN dispatcher.endpoints p ON p.tenant_id = i.tenant_id
       WHERE p.url IS NOT NULL AND (i.ignore_filter OR p.events IS NULL OR i.event = ANY(p.events))
    ), stored AS (
      INSERT INTO dispatcher.events (id, tenant_id, event, body, traceparent)
      SELECT a.id, a.tenant_id, a.event, a.body, a.traceparent FROM admitted a
      ON CONFLICT (id) DO NOTHING
      RETURNING id
    ), fresh AS (
      SELECT a.*, row_number() OVER (PARTITION BY a.tenant_id ORDER BY a.n) AS k
        FROM admitted a JOIN stored s ON s.id = a.id
    ), free AS (
      SELECT t.tenant_id,
             CASE WHEN lease_limit <= 0 OR EXISTS (
                    SELECT 1 FROM dispatcher.deliveries d
                     WHERE d.tenant_id = t.tenant_id AND d.status = 'pending' AND d.next_attempt_at <= now()
                       AND (d.lease_until IS NULL OR d.lease_until <= now()))
                  THEN 0
                  ELSE per_endpoint - (SELECT count(*)::int FROM dispatcher.deliveries d
                                        WHERE d.tenant_id = t.tenant_id AND d.status = 'pending'
                                          AND d.lease_until > now())
             END AS slots
        FROM (SELECT DISTINCT tenant_id FROM fresh) t
    ), eligible AS (
      SELECT f.*, f.k <= fr.slots AS fits FROM fresh f JOIN free fr ON fr.tenant_id = f.tenant_id
    ), decided AS (
      SELECT e.*, e.fits AND row_number() OVER (PARTITION BY e.fits ORDER BY e.n) <= lease_limit AS lease
        FROM eligible e
    ), inserted AS (
      INSERT INTO dispatcher.deliveries (id, event_id, tenant_id, event, lease_until, lease_token)
      SELECT d.delivery_id, d.id, d.tenant_id, d.event,
             CASE WHEN d.lease THEN now() + lease_ms * interval '1 millisecond' END,
             CASE WHEN d.lease THEN token END
        FROM decided d
      RETURNING id, event_id, lease_token IS NOT NULL AS leased
    )
    SELECT i.id, i.event_id, i.leased, d.url, d.secret_sealed, d.previous
      FROM inserted i JOIN decided d ON d.delivery_id = i.id;
END
$fn$`;

export const StoreAndLease1764000000005 = sqlMigration('StoreAndLease1764000000005', {
  up: [STORE_AND_LEASE],
  down: [
    `DROP FUNCTION dispatcher.store_and_lease(text[], int[], text[], text[], text[], boolean[], text[], int, int,
       bigint, text)`,
  ],
});
