import {
  WEBHOOK_ENDPOINTS_MAX,
  type CreateWebhookEndpointRequest,
  type WebhookEndpointCreatedDto,
} from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import type { DispatcherDeps } from '../dispatcher-deps';
import { generateSecret } from '../signature';
import { assertUrlAllowed, normalizeDescription, normalizeEvents, toEndpointDto } from './endpoint-rules';

/**
 * Adds an endpoint with its own filter and a new signing secret, answered this once. The tenant's first endpoint
 * becomes its default (the settings'); past WEBHOOK_ENDPOINTS_MAX the answer is 409.
 */
export async function createWebhookEndpoint(
  deps: DispatcherDeps,
  tenantId: number,
  request: CreateWebhookEndpointRequest,
): Promise<WebhookEndpointCreatedDto> {
  assertUrlAllowed(deps, request.url);
  const secret = generateSecret();
  const created = await deps.endpoints.create(
    tenantId,
    {
      id: newUlid(),
      url: request.url,
      events: normalizeEvents(request.events),
      description: normalizeDescription(request.description),
      sealedSecret: deps.secrets.seal(secret),
    },
    WEBHOOK_ENDPOINTS_MAX,
  );
  if (created === undefined) throw new AppError('WEBHOOK_ENDPOINT_LIMIT_REACHED');
  return { ...toEndpointDto(created), secret };
}
