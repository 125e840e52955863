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
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Date;
  duration_ms: number | null;
  http_status: number | null;
  error: string | null;
  response_excerpt: string | null;
}

const FILTER = `tenant_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR event = $3)`;

/** The health monitor's reads of deliveries and attempts, and redelivery. */
export class DeliveryLogRepository implements DeliveryLog {
  constructor(private readonly ds: DataSource) {}

  /** One page of the tenant's deliveries, newest first, each with its attempts in order; and the total. */
  async list(
    tenantId: number,
    q: WebhookDeliveriesQuery,
  ): Promise<{ total: number; deliveries: DeliveryView[] }> {
    const params = [tenantId, q.status ?? null, q.event ?? null];
    const [{ total }] = await queryRows<{ total: number }>(
      this.ds,
      `SELECT count(*)::int AS total FROM dispatcher.deliveries WHERE ${FILTER}`,
      params,
    );
    const rows = await queryRows<DeliveryRow>(
      this.ds,
      `SELECT id, event_id, event, status, created_at FROM dispatcher.deliveries WHERE ${FILTER}
        ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [...params, q.per_page, (q.page - 1) * q.per_page],
    );
    const attempts = await queryRows<AttemptRow>(
      this.ds,
      `SELECT delivery_id, attempt, at, duration_ms, http_status, error, response_excerpt
         FROM dispatcher.delivery_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt`,
      [rows.map((r) => r.id)],
    );
    const byDelivery = new Map<string, AttemptView[]>();
    for (const a of attempts) {
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
      })),
    };
  }

  /** Outcomes of the tenant's deliveries created within the window, and its latest failed attempt. */
  async stats(tenantId: number, windowHours: number): Promise<EndpointStats> {
    const [counts] = await queryRows<{ delivered: number; failed: number; pending: number }>(
      this.ds,
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'pending')::int AS pending
         FROM dispatcher.deliveries
        WHERE tenant_id = $1 AND created_at > now() - $2 * interval '1 hour'`,
      [tenantId, windowHours],
    );
    const [last] = await queryRows<{
      at: Date;
      delivery_id: string;
      http_status: number | null;
      error: string;
    }>(
      this.ds,
      `SELECT at, delivery_id, http_status, error FROM dispatcher.delivery_attempts
        WHERE tenant_id = $1 AND error IS NOT NULL ORDER BY id DESC LIMIT 1`,
      [tenantId],
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
      `INSERT INTO dispatcher.deliveries (id, event_id, tenant_id, event, redelivery_of)
       SELECT $3, event_id, tenant_id, event, id FROM dispatcher.deliveries WHERE id = $1 AND tenant_id = $2
       RETURNING id, event_id`,
      [deliveryId, tenantId, newId],
    );
    return row && { deliveryId: row.id, eventId: row.event_id };
  }
}
