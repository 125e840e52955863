import type { WebhookSecretDto } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import type { DispatcherDeps } from './dispatcher-deps';
import { generateSecret } from './signature';

/**
 * A new signing secret, returned this once and stored sealed. The one it replaces keeps signing beside it for
 * the grace period, so a receiver can switch over without rejecting deliveries in between.
 */
export async function rotateWebhookSecret(deps: DispatcherDeps, tenantId: number): Promise<WebhookSecretDto> {
  const secret = generateSecret();
  await deps.endpoints.rotateSecret(
    tenantId,
    deps.secrets.seal(secret),
    deps.config.DISPATCHER_SECRET_GRACE_MS,
    newUlid(),
  );
  return { secret };
}
