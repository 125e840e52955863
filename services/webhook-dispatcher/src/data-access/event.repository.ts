import type { DataSource } from 'typeorm';
import type { WebhookEventName } from '@bm/contracts';
import { GroupCommit, queryRows } from '@bm/platform';

export interface NewWebhookEvent {
  /** `evt_<ULID>`; a second insert of the same id is dropped. */
  id: string;
  tenantId: number;
  event: WebhookEventName;
  /** The exact JSON text every attempt sends. */
  body: string;
  deliveryId: string;
  /** Ignore the tenant's event filter (the test ping always goes). */
  ignoreFilter: boolean;
  /** The trace of the domain event, continued by every attempt. */
  traceparent?: string;
}

/** dispatcher.events: the events to deliver, each stored once with its first delivery. */
export class EventRepository {
  // One statement for the events consumed together: up to 100, or what came within 5 ms.
  private readonly batcher = new GroupCommit<NewWebhookEvent, string | undefined>(
    (events) => this.recordWithDeliveries(events),
    { name: 'webhook events', maxBatch: 100, lingerMs: 5, concurrency: Infinity, onFailure: 'all' },
  );

  constructor(private readonly ds: DataSource) {}

  /** Records one event as part of the next batch (one statement for every event consumed meanwhile). */
  recordWithDelivery(event: NewWebhookEvent): Promise<string | undefined> {
    return this.batcher.submit(event);
  }

  /**
   * In one statement (so atomically), for each event whose tenant has a URL and whose filter admits it: stores
   * the event and a pending delivery. Answers, per event, its delivery id, or undefined when there is no
   * endpoint, the filter drops the event, or the event id is already stored (a redelivered domain event).
   */
  async recordWithDeliveries(events: NewWebhookEvent[]): Promise<Array<string | undefined>> {
    // A batch may hold the same event twice (a redelivery arriving with the original): one of them is stored.
    const unique = [...new Map(events.map((e) => [e.id, e])).values()];
    const rows = await queryRows<{ id: string; event_id: string }>(
      this.ds,
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::boolean[],
                              $7::text[])
                    AS i(id, tenant_id, event, body, delivery_id, ignore_filter, traceparent)
       ), admitted AS (
         SELECT i.* FROM input i JOIN dispatcher.endpoints p ON p.tenant_id = i.tenant_id
          WHERE p.url IS NOT NULL AND (i.ignore_filter OR p.events IS NULL OR i.event = ANY(p.events))
       ), stored AS (
         INSERT INTO dispatcher.events (id, tenant_id, event, body, traceparent)
         SELECT id, tenant_id, event, body, traceparent FROM admitted
         ON CONFLICT (id) DO NOTHING
         RETURNING id
       )
       INSERT INTO dispatcher.deliveries (id, event_id, tenant_id, event)
       SELECT a.delivery_id, a.id, a.tenant_id, a.event FROM admitted a JOIN stored s ON s.id = a.id
       RETURNING id, event_id`,
      [
        unique.map((e) => e.id),
        unique.map((e) => e.tenantId),
        unique.map((e) => e.event),
        unique.map((e) => e.body),
        unique.map((e) => e.deliveryId),
        unique.map((e) => e.ignoreFilter),
        unique.map((e) => e.traceparent ?? null),
      ],
    );
    const created = new Map(rows.map((r) => [r.event_id, r.id]));
    // Only the submitter whose copy was stored gets the delivery; another copy in the same batch gets none.
    return events.map((e) => {
      const id = created.get(e.id);
      return id === e.deliveryId ? id : undefined;
    });
  }
}
