import { WEBHOOK_ENDPOINTS_MAX, type WebhookEndpointListDto } from '@bm/contracts';
import type { DispatcherDeps } from '../dispatcher-deps';
import { toEndpointDto } from './endpoint-rules';

/** The tenant's endpoints, the default (the settings') first, then oldest first. */
export async function listWebhookEndpoints(
  deps: DispatcherDeps,
  tenantId: number,
): Promise<WebhookEndpointListDto> {
  const endpoints = await deps.endpoints.list(tenantId);
  return { endpoints: endpoints.map(toEndpointDto), max_endpoints: WEBHOOK_ENDPOINTS_MAX };
}
