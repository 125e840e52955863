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

/** What an event names, for the monitor's links: its message log (a status update) and its campaign. */
export function subjectsOf(payload: Record<string, unknown>): {
  messageId: number | null;
  campaignId: string | null;
} {
  const messageId = payload.event === 'message.status_updated' ? payload.message_log_id : null;
  const campaignId = payload.campaign_id;
  return {
    messageId: typeof messageId === 'number' ? messageId : null,
    campaignId: typeof campaignId === 'string' ? campaignId : null,
  };
}

function deliveryDto(d: DeliveryView): WebhookDeliveryDto {
  const payload = JSON.parse(d.body) as Record<string, unknown>;
  const { messageId, campaignId } = subjectsOf(payload);
  return {
    delivery_id: d.id,
    event_id: d.eventId,
    event: d.event,
    status: d.status,
    created_at: d.createdAt.toISOString(),
    attempts: d.attempts.map(attemptDto),
    endpoint_id: d.endpointId,
    url: d.url,
    payload,
    message_id: messageId,
    campaign_id: campaignId,
  };
}

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

/**
 * The health monitor: a page of deliveries with every attempt and the payload sent, and the success rate and last
 * error of the endpoint asked for (`endpoint_id`), or else of all the tenant's deliveries with the default's URL.
 */
export async function listWebhookDeliveries(
  deps: DispatcherDeps,
  tenantId: number,
  q: WebhookDeliveriesQuery,
): Promise<WebhookDeliveryListDto> {
  const [page, stats, url] = await Promise.all([
    deps.deliveryLog.list(tenantId, q),
    deps.deliveryLog.stats(tenantId, STATS_WINDOW_HOURS, q.endpoint_id),
    q.endpoint_id === undefined
      ? deps.endpoints.find(tenantId).then((s) => s?.url ?? null)
      : deps.endpoints.get(tenantId, q.endpoint_id).then((e) => e?.url ?? null),
  ]);
  return {
    deliveries: page.deliveries.map(deliveryDto),
    pagination: paginationOf(page.total, q.page, q.per_page),
    endpoint: endpointDto(url, stats),
  };
}
