import type { UpdateWebhookEndpointRequest, WebhookEndpointDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { DispatcherDeps } from '../dispatcher-deps';
import {
  assertEndpointId,
  assertUrlAllowed,
  normalizeDescription,
  normalizeEvents,
  toEndpointDto,
} from './endpoint-rules';

/**
 * Changes the fields given. Events already stored keep their deliveries; a disabled endpoint gets no new ones, and
 * its pending ones fail at their next attempt without a request.
 */
export async function updateWebhookEndpoint(
  deps: DispatcherDeps,
  tenantId: number,
  id: string,
  request: UpdateWebhookEndpointRequest,
): Promise<WebhookEndpointDto> {
  assertEndpointId(id);
  if (request.url !== undefined) assertUrlAllowed(deps, request.url);
  const updated = await deps.endpoints.update(tenantId, id, {
    url: request.url,
    events: request.events === undefined ? undefined : normalizeEvents(request.events),
    description: request.description === undefined ? undefined : normalizeDescription(request.description),
    enabled: request.enabled,
  });
  if (updated === undefined) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
  return toEndpointDto(updated);
}
