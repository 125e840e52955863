import type { DataSource } from 'typeorm';
import { GroupCommit, queryRows } from '@bm/platform';

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
  /** The trace of the event's domain event, when it had one. */
  traceparent: string | null;
}

export interface AttemptRecord {
  deliveryId: string;
  leaseToken: string;
  status: 'pending' | 'delivered' | 'failed';
  /** When the next attempt is due (pending only). */
  retryInMs: number;
  url: string | null;
  at: Date;
  durationMs: number;
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
  traceparent: string | null;
}

/*
 * One claim at a time across replicas (a transaction-scoped advisory lock, held for a few milliseconds), so the
 * count of leased deliveries per endpoint is exact when the limit is applied. The endpoints with pending
 * deliveries are found by a skip scan of the (tenant_id, next_attempt_at) index, one probe per endpoint, and each
 * endpoint below its limit gives its oldest due deliveries up to the free slots: the cost follows the number of
 * endpoints, not the backlog, so a hanging endpoint's thousands of waiting deliveries cost one probe. The rows
 * are locked with SKIP LOCKED; the lease hides them from other claims until it expires.
 */
const CLAIM = `
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
        ORDER BY d.next_attempt_at LIMIT greatest(0, $2 - coalesce(b.n, 0))
     ) x
     WHERE e.tenant_id IS NOT NULL
  ), picked AS (
    SELECT d.id FROM dispatcher.deliveries d JOIN due ON due.id = d.id
     WHERE d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= now())
     ORDER BY due.next_attempt_at, d.id LIMIT $1
       FOR UPDATE OF d SKIP LOCKED
  )
  UPDATE dispatcher.deliveries d
     SET lease_until = now() + $3 * interval '1 millisecond', lease_token = $4, updated_at = now()
    FROM picked, dispatcher.events e LEFT JOIN dispatcher.endpoints p ON p.tenant_id = e.tenant_id
   WHERE d.id = picked.id AND e.id = d.event_id
  RETURNING d.id, d.tenant_id, d.event_id, e.body, e.traceparent, d.attempt_count, p.url, p.secret_sealed,
            CASE WHEN p.previous_secret_expires_at > now() THEN p.previous_secret_sealed END
              AS previous_secret_sealed`;

/*
 * Records attempts and their deliveries' new state in one statement, only while each lease is still ours: a
 * replica whose lease expired (and whose delivery another replica took over) records nothing.
 */
const RECORD = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::timestamptz[],
                         $7::int[], $8::int[], $9::text[], $10::text[])
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
  )
  INSERT INTO dispatcher.delivery_attempts
    (delivery_id, tenant_id, attempt, url, at, duration_ms, http_status, error, response_excerpt)
  SELECT u.id, u.tenant_id, u.attempt_count, i.url, i.at, i.duration_ms, i.http_status, i.error, i.excerpt
    FROM updated u JOIN input i ON i.delivery_id = u.id
  RETURNING delivery_id`;

/** dispatcher.deliveries as the delivery worker uses them: lease, record the outcome, release. */
export class DeliveryRepository {
  // One statement for the attempts finished together: up to 100, or what came within 5 ms.
  private readonly recorder = new GroupCommit<AttemptRecord, boolean>(
    (attempts) => this.recordAttempts(attempts),
    { name: 'delivery attempts', maxBatch: 100, lingerMs: 5, concurrency: Infinity, onFailure: 'all' },
  );

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
      traceparent: r.traceparent,
    }));
  }

  /** The earliest future time a pending delivery's retry falls due or its lease runs out, if any. */
  async nextDueAt(): Promise<Date | undefined> {
    const [row] = await queryRows<{ at: Date | null }>(
      this.ds,
      `SELECT least(min(next_attempt_at) FILTER (WHERE next_attempt_at > now()),
                    min(lease_until) FILTER (WHERE lease_until > now())) AS at
         FROM dispatcher.deliveries WHERE status = 'pending'`,
    );
    return row?.at ?? undefined;
  }

  /** Records one attempt as part of the next batch; false when the lease was no longer ours. */
  recordAttempt(a: AttemptRecord): Promise<boolean> {
    return this.recorder.submit(a);
  }

  private async recordAttempts(attempts: AttemptRecord[]): Promise<boolean[]> {
    const col = <K extends keyof AttemptRecord>(k: K) => attempts.map((a) => a[k]);
    const rows = await queryRows<{ delivery_id: string }>(this.ds, RECORD, [
      col('deliveryId'),
      col('leaseToken'),
      col('status'),
      col('retryInMs'),
      col('url'),
      col('at'),
      col('durationMs'),
      col('httpStatus'),
      col('error'),
      col('responseExcerpt'),
    ]);
    const recorded = new Set(rows.map((r) => r.delivery_id));
    return attempts.map((a) => recorded.has(a.deliveryId));
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
