import type { DataSource } from 'typeorm';
import { queryRows } from '@bm/platform';

/** A delivery leased for one attempt, with everything the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  tenantId: number;
  eventId: string;
  body: string;
  /** Attempts already finished; this one is number attemptCount + 1. */
  attemptCount: number;
  leaseToken: string;
  url: string | null;
  /** Sealed secrets that sign now, the newest first. */
  sealedSecrets: string[];
}

export interface AttemptRecord {
  deliveryId: string;
  leaseToken: string;
  status: 'pending' | 'delivered' | 'failed';
  /** When the next attempt is due (pending only). */
  retryInMs: number;
  url: string | null;
  at: Date;
  durationMs: number | null;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

interface ClaimRow {
  id: string;
  tenant_id: number;
  event_id: string;
  body: string;
  attempt_count: number;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
}

/*
 * One claim at a time across replicas (a transaction-scoped advisory lock, held for a few milliseconds), so the
 * count of leased deliveries per endpoint is exact when the limit is applied. Due deliveries are walked oldest
 * first, skipping endpoints already at their limit (a hanging endpoint's backlog never hides other tenants'
 * deliveries), and locked with SKIP LOCKED; the lease makes them invisible to other claims until it expires.
 */
const CLAIM = `
  WITH busy AS (
    SELECT tenant_id, count(*)::int AS n FROM dispatcher.deliveries
     WHERE status = 'pending' AND lease_until > now() GROUP BY tenant_id
  ), due AS (
    SELECT d.id, d.tenant_id, d.next_attempt_at FROM dispatcher.deliveries d
     WHERE d.status = 'pending' AND d.next_attempt_at <= now()
       AND (d.lease_until IS NULL OR d.lease_until <= now())
       AND NOT EXISTS (SELECT 1 FROM busy b WHERE b.tenant_id = d.tenant_id AND b.n >= $2)
     ORDER BY d.next_attempt_at, d.id LIMIT $1 * 4
  ), ranked AS (
    SELECT due.id, due.next_attempt_at,
           row_number() OVER (PARTITION BY due.tenant_id ORDER BY due.next_attempt_at, due.id)
             + coalesce(b.n, 0) AS slot
      FROM due LEFT JOIN busy b USING (tenant_id)
  ), picked AS (
    SELECT d.id FROM dispatcher.deliveries d JOIN ranked r ON r.id = d.id
     WHERE r.slot <= $2 AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= now())
     ORDER BY r.next_attempt_at, d.id LIMIT $1
       FOR UPDATE OF d SKIP LOCKED
  )
  UPDATE dispatcher.deliveries d
     SET lease_until = now() + $3 * interval '1 millisecond', lease_token = $4, updated_at = now()
    FROM picked, dispatcher.events e LEFT JOIN dispatcher.endpoints p ON p.tenant_id = e.tenant_id
   WHERE d.id = picked.id AND e.id = d.event_id
  RETURNING d.id, d.tenant_id, d.event_id, e.body, d.attempt_count, p.url, p.secret_sealed,
            CASE WHEN p.previous_secret_expires_at > now() THEN p.previous_secret_sealed END
              AS previous_secret_sealed`;

/** dispatcher.deliveries as the delivery worker uses them: lease, record the outcome, release. */
export class DeliveryRepository {
  constructor(private readonly ds: DataSource) {}

  async claim(
    limit: number,
    perEndpoint: number,
    leaseMs: number,
    token: string,
  ): Promise<ClaimedDelivery[]> {
    const rows = await this.ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('dispatcher.claim'))`);
      return queryRows<ClaimRow>(tx, CLAIM, [limit, perEndpoint, leaseMs, token]);
    });
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      eventId: r.event_id,
      body: r.body,
      attemptCount: r.attempt_count,
      leaseToken: token,
      url: r.url,
      sealedSecrets: [r.secret_sealed, r.previous_secret_sealed].filter((s): s is string => s !== null),
    }));
  }

  /**
   * Records the attempt and the delivery's new state in one statement, only while the lease is still ours: a
   * replica whose lease expired (and whose delivery another replica took over) records nothing.
   */
  async recordAttempt(a: AttemptRecord): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.ds,
      `WITH delivery AS (
         UPDATE dispatcher.deliveries
            SET status = $3, attempt_count = attempt_count + 1,
                next_attempt_at = now() + $4 * interval '1 millisecond',
                lease_until = NULL, lease_token = NULL, updated_at = now(),
                completed_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
          WHERE id = $1 AND lease_token = $2
          RETURNING id, tenant_id, attempt_count)
       INSERT INTO dispatcher.delivery_attempts
         (delivery_id, tenant_id, attempt, url, at, duration_ms, http_status, error, response_excerpt)
       SELECT id, tenant_id, attempt_count, $5, $6, $7, $8, $9, $10 FROM delivery
       RETURNING id`,
      [
        a.deliveryId,
        a.leaseToken,
        a.status,
        a.retryInMs,
        a.url,
        a.at,
        a.durationMs,
        a.httpStatus,
        a.error,
        a.responseExcerpt,
      ],
    );
    return rows.length > 0;
  }

  /** Gives a leased delivery back at once (the dispatcher is stopping mid-attempt); the attempt is not counted. */
  async release(deliveryId: string, leaseToken: string): Promise<void> {
    await this.ds.query(
      `UPDATE dispatcher.deliveries SET lease_until = NULL, lease_token = NULL, updated_at = now()
        WHERE id = $1 AND lease_token = $2`,
      [deliveryId, leaseToken],
    );
  }
}
