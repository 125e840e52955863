import type { WebhookEndpointDeletedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { DispatcherDeps } from '../dispatcher-deps';
import { assertEndpointId } from './endpoint-rules';

/**
 * Removes an endpoint: it gets no new deliveries, and its pending ones fail at their next attempt without a
 * request (the monitor keeps them). When it was the default, the oldest remaining endpoint becomes the default.
 */
export async function deleteWebhookEndpoint(
  deps: DispatcherDeps,
  tenantId: number,
  id: string,
): Promise<WebhookEndpointDeletedDto> {
  assertEndpointId(id);
  if (!(await deps.endpoints.remove(tenantId, id))) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
  deps.wakeWorker();
  return { endpoint_id: id, deleted: true };
}
