import type { WebhookTestDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { DispatcherDeps } from '../dispatcher-deps';
import { queueTestEvent } from '../send-test-event.use-case';
import { assertEndpointId } from './endpoint-rules';

/** A `webhook.test` ping to one endpoint, whatever its filter; 422 while it is disabled. */
export async function sendEndpointTest(
  deps: DispatcherDeps,
  tenantId: number,
  id: string,
): Promise<WebhookTestDto> {
  assertEndpointId(id);
  const endpoint = await deps.endpoints.get(tenantId, id);
  if (endpoint === undefined) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
  const sent = endpoint.enabled ? await queueTestEvent(deps, tenantId, id) : undefined;
  if (sent === undefined) {
    throw new AppError('VALIDATION_ERROR', 'The endpoint is disabled', {
      errors: [{ field: 'enabled', message: 'enable the endpoint first' }],
    });
  }
  return sent;
}
