import type { DataSource } from 'typeorm';
import type { WebhookEventName } from '@bm/contracts';
import { queryRows } from '@bm/platform';

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
}

/** dispatcher.events: the events to deliver, each stored once with its first delivery. */
export class EventRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * In one statement (so atomically): when the tenant has a URL and its filter admits the event, stores the event
   * and a pending delivery. Returns the delivery id, or undefined when there is no endpoint, the filter drops the
   * event, or the event id is already stored (a redelivered domain event).
   */
  async recordWithDelivery(e: NewWebhookEvent): Promise<string | undefined> {
    const [row] = await queryRows<{ id: string }>(
      this.ds,
      `WITH endpoint AS (
         SELECT tenant_id FROM dispatcher.endpoints
          WHERE tenant_id = $2 AND url IS NOT NULL AND ($5 OR events IS NULL OR $3 = ANY(events))
       ), stored AS (
         INSERT INTO dispatcher.events (id, tenant_id, event, body)
         SELECT $1, tenant_id, $3, $4 FROM endpoint
         ON CONFLICT (id) DO NOTHING
         RETURNING id, tenant_id, event
       )
       INSERT INTO dispatcher.deliveries (id, event_id, tenant_id, event)
       SELECT $6, id, tenant_id, event FROM stored
       RETURNING id`,
      [e.id, e.tenantId, e.event, e.body, e.ignoreFilter, e.deliveryId],
    );
    return row?.id;
  }
}
