import {
  paginationOf,
  type WebhookDeliveriesQuery,
  type WebhookDeliveryAttemptDto,
  type WebhookDeliveryDto,
  type WebhookDeliveryListDto,
  type WebhookEndpointHealthDto,
} from '@bm/contracts';
import type { AttemptView, DeliveryView, EndpointStats } from './ports/delivery-log.port';
import type { DispatcherDeps } from './dispatcher-deps';

/** Success rate and last error are computed over deliveries created within this window. */
export const STATS_WINDOW_HOURS = 24;

const attemptDto = (a: AttemptView): WebhookDeliveryAttemptDto => ({
  attempt: a.attempt,
  at: a.at.toISOString(),
  duration_ms: a.durationMs,
  http_status: a.httpStatus,
  error: a.error,
  response_excerpt: a.responseExcerpt,
});

const deliveryDto = (d: DeliveryView): WebhookDeliveryDto => ({
  delivery_id: d.id,
  event_id: d.eventId,
  event: d.event,
  status: d.status,
  created_at: d.createdAt.toISOString(),
  attempts: d.attempts.map(attemptDto),
});

const endpointDto = (url: string | null, s: EndpointStats): WebhookEndpointHealthDto => ({
  url,
  window_hours: STATS_WINDOW_HOURS,
  delivered: s.delivered,
  failed: s.failed,
  pending: s.pending,
  success_rate: s.delivered + s.failed === 0 ? null : s.delivered / (s.delivered + s.failed),
  last_error: s.lastError && {
    at: s.lastError.at.toISOString(),
    delivery_id: s.lastError.deliveryId,
    http_status: s.lastError.httpStatus,
    error: s.lastError.error,
  },
});

/** The health monitor: a page of deliveries with every attempt, and the endpoint's success rate and last error. */
export async function listWebhookDeliveries(
  deps: DispatcherDeps,
  tenantId: number,
  q: WebhookDeliveriesQuery,
): Promise<WebhookDeliveryListDto> {
  const [page, stats, settings] = await Promise.all([
    deps.deliveryLog.list(tenantId, q),
    deps.deliveryLog.stats(tenantId, STATS_WINDOW_HOURS),
    deps.endpoints.find(tenantId),
  ]);
  return {
    deliveries: page.deliveries.map(deliveryDto),
    pagination: paginationOf(page.total, q.page, q.per_page),
    endpoint: endpointDto(settings?.url ?? null, stats),
  };
}
