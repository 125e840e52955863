import { ulid } from 'ulidx';
import {
  formatWebhookTimestamp,
  WEBHOOK_EVENT_ID_PREFIX,
  type WebhookEventBody,
  type WebhookTestDto,
} from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { DispatcherDeps } from './dispatcher-deps';

/**
 * Queues a `webhook.test` ping through the same path as every event, to one endpoint whatever its event filter:
 * the one named, or else the default endpoint (that of the settings). Undefined when that endpoint takes nothing
 * (no URL, disabled).
 */
export async function queueTestEvent(
  deps: DispatcherDeps,
  tenantId: number,
  endpointId: string,
): Promise<WebhookTestDto | undefined> {
  const body: WebhookEventBody<'webhook.test'> = {
    event: 'webhook.test',
    tenant_id: tenantId,
    timestamp: formatWebhookTimestamp(new Date()),
    message: `Test webhook from ${deps.config.DISPATCHER_SERVICE_NAME}`,
  };
  const stored = await deps.events.recordWithDelivery({
    id: `${WEBHOOK_EVENT_ID_PREFIX}${ulid()}`,
    tenantId,
    event: 'webhook.test',
    body: JSON.stringify(body),
    deliveryId: ulid(),
    endpointId,
  });
  if (stored === undefined) return undefined;
  if (!stored.leased) deps.wakeWorker();
  return { delivery_id: stored.deliveryId };
}

/** POST /api/v1/webhooks/test: the ping to the default endpoint (the settings'). */
export async function sendTestEvent(deps: DispatcherDeps, tenantId: number): Promise<WebhookTestDto> {
  const endpoint = await deps.endpoints.find(tenantId);
  const sent = endpoint?.url ? await queueTestEvent(deps, tenantId, endpoint.id) : undefined;
  if (sent === undefined) {
    throw new AppError('VALIDATION_ERROR', 'No webhook URL is set', {
      errors: [{ field: 'url', message: 'set a webhook URL with PUT /api/v1/webhooks/settings first' }],
    });
  }
  return sent;
}
