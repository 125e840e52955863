import type { DataSource } from 'typeorm';
import type { WebhookDeliveriesQuery, WebhookDeliveryStatus, WebhookEventName } from '@bm/contracts';
import { queryRows } from '@bm/platform';

import type {
  AttemptView,
  DeliveryLog,
  DeliveryView,
  EndpointStats,
} from '../domain/ports/delivery-log.port';

interface DeliveryRow {
  id: string;
  event_id: string;
  event: WebhookEventName;
  status: WebhookDeliveryStatus;
  created_at: Date;
  endpoint_id: string | null;
  endpoint_url: string | null;
  body: string;
  attempts: StoredAttempt[];
}

/** An attempt as the delivery keeps it (`attempts`, migration 1767100000000): a row's fields, its time as text. */
type StoredAttempt = Omit<AttemptRow, 'delivery_id' | 'at'> & { at: string };

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Date;
  duration_ms: number | null;
  http_status: number | null;
  error: string | null;
  response_excerpt: string | null;
  url: string | null;
}

const FILTER = `d.tenant_id = $1 AND ($2::text IS NULL OR d.status = $2) AND ($3::text IS NULL OR d.event = $3)
  AND ($4::text IS NULL OR d.endpoint_id = $4)`;

/** The health monitor's reads of deliveries and attempts, and redelivery. */
export class DeliveryLogRepository implements DeliveryLog {
  constructor(private readonly ds: DataSource) {}

  /** One page of the tenant's deliveries, newest first, each with its attempts in order; and the total. */
  async list(
    tenantId: number,
    q: WebhookDeliveriesQuery,
  ): Promise<{ total: number; deliveries: DeliveryView[] }> {
    const params = [tenantId, q.status ?? null, q.event ?? null, q.endpoint_id ?? null];
    const [{ total }] = await queryRows<{ total: number }>(
      this.ds,
      `SELECT count(*)::int AS total FROM dispatcher.deliveries d WHERE ${FILTER}`,
      params,
    );
    // The body and attempts are the delivery's own; a delivery the previous release stored has them in the events
    // and delivery_attempts tables instead. The endpoint's URL as it is now.
    const rows = await queryRows<DeliveryRow>(
      this.ds,
      `SELECT d.id, d.event_id, d.event, d.status, d.created_at, d.endpoint_id, p.url AS endpoint_url,
              coalesce(d.body, (SELECT e.body FROM dispatcher.events e WHERE e.id = d.event_id)) AS body, d.attempts
         FROM dispatcher.deliveries d
         LEFT JOIN dispatcher.endpoints p ON p.id = d.endpoint_id AND p.tenant_id = d.tenant_id
        WHERE ${FILTER}
        ORDER BY d.created_at DESC, d.id DESC LIMIT $5 OFFSET $6`,
      [...params, q.per_page, (q.page - 1) * q.per_page],
    );
    const kept = await queryRows<AttemptRow>(
      this.ds,
      `SELECT delivery_id, attempt, at, duration_ms, http_status, error, response_excerpt, url
         FROM dispatcher.delivery_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt`,
      [rows.map((r) => r.id)],
    );
    const attempts = [
      ...kept,
      ...rows.flatMap((r) =>
        r.attempts.map((a): AttemptRow => ({ ...a, delivery_id: r.id, at: new Date(a.at) })),
      ),
    ].sort((a, b) =>
      a.delivery_id === b.delivery_id ? a.attempt - b.attempt : a.delivery_id < b.delivery_id ? -1 : 1,
    );
    const byDelivery = new Map<string, AttemptView[]>();
    const lastUrl = new Map<string, string | null>();
    for (const a of attempts) {
      lastUrl.set(a.delivery_id, a.url);
      const view: AttemptView = {
        attempt: a.attempt,
        at: a.at,
        durationMs: a.duration_ms,
        httpStatus: a.http_status,
        error: a.error,
        responseExcerpt: a.response_excerpt,
      };
      byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), view]);
    }
    return {
      total,
      deliveries: rows.map((r) => ({
        id: r.id,
        eventId: r.event_id,
        event: r.event,
        status: r.status,
        createdAt: r.created_at,
        attempts: byDelivery.get(r.id) ?? [],
        endpointId: r.endpoint_id,
        url: lastUrl.get(r.id) ?? r.endpoint_url,
        body: r.body,
      })),
    };
  }

  /** Outcomes of the tenant's (or one endpoint's) deliveries created within the window, and the latest failure. */
  async stats(tenantId: number, windowHours: number, endpointId?: string): Promise<EndpointStats> {
    const [counts] = await queryRows<{ delivered: number; failed: number; pending: number }>(
      this.ds,
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'pending')::int AS pending
         FROM dispatcher.deliveries
        WHERE tenant_id = $1 AND created_at > now() - $2 * interval '1 hour'
          AND ($3::text IS NULL OR endpoint_id = $3)`,
      [tenantId, windowHours, endpointId ?? null],
    );
    // The latest failed attempt: of the delivery that failed last (its own attempts), or a row the previous
    // release wrote.
    const [last] = await queryRows<{
      at: Date;
      delivery_id: string;
      http_status: number | null;
      error: string;
    }>(
      this.ds,
      `SELECT * FROM (
         (SELECT (a->>'at')::timestamptz AS at, d.id AS delivery_id, (a->>'http_status')::int AS http_status,
                 a->>'error' AS error
            FROM (SELECT id, attempts FROM dispatcher.deliveries
                   WHERE tenant_id = $1 AND last_error_at IS NOT NULL AND ($2::text IS NULL OR endpoint_id = $2)
                   ORDER BY last_error_at DESC LIMIT 1) d
           CROSS JOIN LATERAL jsonb_array_elements(d.attempts) a
           WHERE a->>'error' IS NOT NULL ORDER BY (a->>'attempt')::int DESC LIMIT 1)
         UNION ALL
         (SELECT a.at, a.delivery_id, a.http_status, a.error FROM dispatcher.delivery_attempts a
           WHERE a.tenant_id = $1 AND a.error IS NOT NULL
             AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM dispatcher.deliveries d
                                               WHERE d.id = a.delivery_id AND d.endpoint_id = $2))
           ORDER BY a.id DESC LIMIT 1)
       ) latest ORDER BY at DESC LIMIT 1`,
      [tenantId, endpointId ?? null],
    );
    return {
      ...counts,
      lastError: last
        ? { at: last.at, deliveryId: last.delivery_id, httpStatus: last.http_status, error: last.error }
        : null,
    };
  }

  /** A new pending delivery of the same event (same event id); undefined when the delivery is not the tenant's. */
  async redeliver(
    tenantId: number,
    deliveryId: string,
    newId: string,
  ): Promise<{ deliveryId: string; eventId: string } | undefined> {
    const [row] = await queryRows<{ id: string; event_id: string }>(
      this.ds,
      `INSERT INTO dispatcher.deliveries
         (id, event_id, tenant_id, event, endpoint_id, redelivery_of, body, traceparent)
       SELECT $3, d.event_id, d.tenant_id, d.event, d.endpoint_id, d.id,
              coalesce(d.body, (SELECT e.body FROM dispatcher.events e WHERE e.id = d.event_id)),
              coalesce(d.traceparent, (SELECT e.traceparent FROM dispatcher.events e WHERE e.id = d.event_id))
         FROM dispatcher.deliveries d
        WHERE d.id = $1 AND d.tenant_id = $2
       RETURNING id, event_id`,
      [deliveryId, tenantId, newId],
    );
    return row && { deliveryId: row.id, eventId: row.event_id };
  }
}
