import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { GroupCommit, queryRows } from '@bm/platform';
import type { ClaimedDelivery } from '../domain/ports/deliveries.port';
import type {
  LeaseSettings,
  LeaseTaker,
  NewWebhookEvent,
  StoredDelivery,
  WebhookEvents,
} from '../domain/ports/events.port';

interface StoredRow {
  id: string;
  event_id: string;
  leased: boolean;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
}

/** Leased at most per statement, as a claim. */
const LEASE_BATCH = 100;

/** The events to deliver, each stored as one delivery per endpoint that takes it (dispatcher.deliveries). */
export class EventRepository implements WebhookEvents {
  // One statement for the events consumed together: up to 100, or what came within 5 ms.
  private readonly batcher = new GroupCommit<NewWebhookEvent, StoredDelivery | undefined>(
    (events) => this.recordWithDeliveries(events),
    { name: 'webhook events', maxBatch: 100, lingerMs: 5, concurrency: Infinity, onFailure: 'all' },
  );

  constructor(
    private readonly ds: DataSource,
    private readonly lease: LeaseSettings,
    private readonly taker: LeaseTaker,
  ) {}

  /** Records one event as part of the next batch (one statement for every event consumed meanwhile). */
  recordWithDelivery(event: NewWebhookEvent): Promise<StoredDelivery | undefined> {
    return this.batcher.submit(event);
  }

  /**
   * In one statement (so atomically; the function of migration 1767100000000), for each event some endpoint of its
   * tenant takes (enabled, with a URL, its filter admitting the event): a pending delivery per such endpoint, with
   * the event's body and trace in it, leased at once when the worker has room and the endpoint a free slot. Answers,
   * per event, its first delivery, or undefined when no endpoint takes it or its endpoints have it already (a
   * redelivered domain event).
   */
  async recordWithDeliveries(events: NewWebhookEvent[]): Promise<Array<StoredDelivery | undefined>> {
    // A batch may hold the same event twice (a redelivery arriving with the original): one of them is stored.
    const unique = [...new Map(events.map((e) => [e.id, e])).values()];
    const reserved = this.taker.reserve(Math.min(unique.length, LEASE_BATCH));
    const token = randomUUID();
    let rows: StoredRow[];
    try {
      rows = await queryRows<StoredRow>(
        this.ds,
        `SELECT * FROM dispatcher.store_deliveries($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          unique.map((e) => e.id),
          unique.map((e) => e.tenantId),
          unique.map((e) => e.event),
          unique.map((e) => e.body),
          unique.map((e) => e.deliveryId),
          unique.map((e) => e.endpointId ?? null),
          unique.map((e) => e.traceparent ?? null),
          reserved,
          this.lease.perEndpoint,
          this.lease.leaseMs,
          token,
        ],
      );
    } catch (err) {
      this.taker.adopt([], reserved);
      throw err;
    }
    const byId = new Map(unique.map((e) => [e.id, e]));
    const leased: ClaimedDelivery[] = [];
    const created = new Map<string, StoredDelivery>();
    for (const r of rows) {
      const e = byId.get(r.event_id);
      if (!e) continue;
      // The delivery that took the id given is the one answered; `leased` is false if any other waits.
      const seen = created.get(r.event_id);
      const first = seen === undefined || r.id === e.deliveryId;
      created.set(r.event_id, {
        deliveryId: first ? r.id : seen.deliveryId,
        leased: r.leased && (seen?.leased ?? true),
      });
      if (!r.leased) continue;
      leased.push({
        id: r.id,
        tenantId: e.tenantId,
        eventId: e.id,
        body: e.body,
        attemptCount: 0,
        leaseToken: token,
        url: r.url,
        sealedSecrets: [r.secret_sealed, r.previous_secret_sealed].filter((x): x is string => x !== null),
        traceparent: e.traceparent ?? null,
      });
    }
    this.taker.adopt(leased, reserved);
    // Only the submitter whose copy was stored gets the delivery; another copy in the same batch gets none.
    return events.map((e) => (byId.get(e.id) === e ? created.get(e.id) : undefined));
  }
}
