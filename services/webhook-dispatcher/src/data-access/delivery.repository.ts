import type { DataSource } from 'typeorm';
import { queryRows } from '@bm/platform';

import type {
  AttemptRecord,
  ClaimedDelivery,
  Deliveries,
  PassRequest,
  PassResult,
} from '../domain/ports/deliveries.port';

interface PassRow {
  kind: 'recorded' | 'claimed' | 'next_due';
  id: string;
  tenant_id: number;
  event_id: string;
  body: string;
  attempt_count: number;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
  traceparent: string | null;
  next_due_at: Date | null;
}

/*
 * One statement per pass (the function of migration 1767100000000): the attempts finished since the last pass are
 * recorded in their deliveries, each only while its lease is still ours (a replica whose lease expired, and whose delivery another
 * replica took over, records nothing), then due deliveries are claimed under a transaction-scoped advisory lock
 * (one claim at a time across replicas, so the count of leased deliveries per endpoint is exact when the limit is
 * applied), at most the per-endpoint limit in flight and by a skip scan over endpoints: a hanging endpoint's
 * thousands of waiting deliveries cost one probe.
 */
const RECORD_AND_CLAIM = `SELECT * FROM dispatcher.record_attempts_and_claim($1, $2, $3, $4, $5, $6, $7, $8, $9,
  $10, $11, $12, $13, $14, $15)`;

/** dispatcher.deliveries as the delivery worker uses them: record outcomes and lease, release. */
export class DeliveryRepository implements Deliveries {
  constructor(private readonly ds: DataSource) {}

  /** Records the finished attempts and leases due deliveries, in one statement. */
  async recordAndClaim(p: PassRequest): Promise<PassResult> {
    const col = <K extends keyof AttemptRecord>(k: K) => p.finished.map((a) => a[k]);
    const rows = await queryRows<PassRow>(this.ds, RECORD_AND_CLAIM, [
      p.claimLimit,
      p.perEndpoint,
      p.leaseMs,
      p.token,
      p.wantNextDue,
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
    const result: PassResult = { recorded: new Set(), claimed: [] };
    for (const r of rows) {
      if (r.kind === 'recorded') result.recorded.add(r.id);
      else if (r.kind === 'next_due') result.nextDueAt = r.next_due_at ?? undefined;
      else {
        result.claimed.push({
          id: r.id,
          tenantId: r.tenant_id,
          eventId: r.event_id,
          body: r.body,
          attemptCount: r.attempt_count,
          leaseToken: p.token,
          url: r.url,
          sealedSecrets: [r.secret_sealed, r.previous_secret_sealed].filter((s): s is string => s !== null),
          traceparent: r.traceparent,
        });
      }
    }
    return result;
  }

  /** Leases due deliveries (a pass that records nothing). */
  async claim(
    limit: number,
    perEndpoint: number,
    leaseMs: number,
    token: string,
  ): Promise<ClaimedDelivery[]> {
    const pass = { finished: [], claimLimit: limit, perEndpoint, leaseMs, token, wantNextDue: false };
    return (await this.recordAndClaim(pass)).claimed;
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
