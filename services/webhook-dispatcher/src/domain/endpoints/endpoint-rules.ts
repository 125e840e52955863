import { ULID_PATTERN, type WebhookEndpointDto, type WebhookEventName } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { DispatcherDeps } from '../dispatcher-deps';
import type { EndpointRecord } from '../ports/endpoints.port';

export const toEndpointDto = (e: EndpointRecord): WebhookEndpointDto => ({
  endpoint_id: e.id,
  url: e.url,
  events: e.events,
  description: e.description,
  enabled: e.enabled,
  default: e.isDefault,
  secret_set: e.secretSet,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});

/** An empty filter sends every event, as an absent one does. */
export const normalizeEvents = (events: WebhookEventName[] | null): WebhookEventName[] | null =>
  events === null || events.length === 0 ? null : events;

/** A blank description is none. */
export const normalizeDescription = (d: string | null): string | null => (d === null || d === '' ? null : d);

/**
 * The settings' URL rules: the address policy as far as it can be judged now; a host name is checked again, after
 * DNS, every time a delivery connects.
 */
export function assertUrlAllowed(deps: DispatcherDeps, url: string): void {
  const refused = deps.policy.refuseUrl(url);
  if (refused !== undefined) {
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', {
      errors: [{ field: 'url', message: refused }],
    });
  }
}

/** An id that is no ULID names no endpoint: 404 without a query. */
export function assertEndpointId(id: string): void {
  if (!ULID_PATTERN.test(id)) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
}
