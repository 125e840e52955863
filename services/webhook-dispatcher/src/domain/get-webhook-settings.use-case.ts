import type { WebhookSettingsDto } from '@bm/contracts';
import type { EndpointSettings } from './ports/endpoints.port';
import type { DispatcherDeps } from './dispatcher-deps';

export const toSettingsDto = (s: EndpointSettings | undefined): WebhookSettingsDto => ({
  url: s?.url ?? null,
  events: s?.events ?? null,
  secret_set: s?.secretSet ?? false,
});

/** The tenant's endpoint settings; a tenant that never set any has none (url and events null). */
export async function getWebhookSettings(
  deps: DispatcherDeps,
  tenantId: number,
): Promise<WebhookSettingsDto> {
  return toSettingsDto(await deps.endpoints.find(tenantId));
}
