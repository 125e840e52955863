import { currentTraceparent, newUlid } from '@bm/platform';
import type { DomainEventPayloads } from '@bm/contracts';
import type { DispatcherDeps } from './dispatcher-deps';
import { toWebhookBody, webhookEventId, type DeliverableDomainEvent } from './webhook-event';

/**
 * Turns a domain event into the published webhook event and, when some endpoint of the tenant takes it, stores it
 * with one delivery per such endpoint. Nothing is recorded for a tenant without a URL or for a filtered event.
 * Idempotent: a domain event delivered twice maps to the same event id and is stored once.
 */
export async function recordDomainEvent<K extends DeliverableDomainEvent>(
  deps: DispatcherDeps,
  event: K,
  payload: DomainEventPayloads[K],
): Promise<string | undefined> {
  const body = toWebhookBody(event, payload);
  if (body === undefined) return undefined;
  const stored = await deps.events.recordWithDelivery({
    id: webhookEventId(payload.event_id),
    tenantId: payload.tenant_id,
    event,
    body: JSON.stringify(body),
    deliveryId: newUlid(),
    // The consumer runs in the domain event's trace: the webhook's attempts continue it.
    traceparent: currentTraceparent(),
  });
  if (stored === undefined) return undefined;
  // Leased as it was stored, the delivery is the worker's already; otherwise its claim finds it.
  if (!stored.leased) deps.wakeWorker();
  return stored.deliveryId;
}
