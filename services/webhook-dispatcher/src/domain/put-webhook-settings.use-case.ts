import type { WebhookSettingsDto, WebhookSettingsRequest } from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import type { DispatcherDeps } from './dispatcher-deps';
import { toSettingsDto } from './get-webhook-settings.use-case';

/**
 * Replaces the default endpoint's URL and event filter (the signing secrets stay). The URL must pass the address policy as far as
 * it can be judged now; a host name is checked again, after DNS, every time a delivery connects.
 */
export async function putWebhookSettings(
  deps: DispatcherDeps,
  tenantId: number,
  request: WebhookSettingsRequest,
): Promise<WebhookSettingsDto> {
  if (request.url !== null) {
    const refused = deps.policy.refuseUrl(request.url);
    if (refused !== undefined) {
      throw new AppError('VALIDATION_ERROR', 'The request is invalid', {
        errors: [{ field: 'url', message: refused }],
      });
    }
  }
  return toSettingsDto(await deps.endpoints.save(tenantId, request.url, request.events, newUlid()));
}
