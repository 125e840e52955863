import type { WebhookSecretDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { DispatcherDeps } from '../dispatcher-deps';
import { generateSecret } from '../signature';
import { assertEndpointId } from './endpoint-rules';

/** One endpoint's new signing secret, answered this once; the old one signs beside it for the grace period. */
export async function rotateEndpointSecret(
  deps: DispatcherDeps,
  tenantId: number,
  id: string,
): Promise<WebhookSecretDto> {
  assertEndpointId(id);
  const secret = generateSecret();
  const sealed = deps.secrets.seal(secret);
  const rotated = await deps.endpoints.rotateEndpointSecret(
    tenantId,
    id,
    sealed,
    deps.config.DISPATCHER_SECRET_GRACE_MS,
  );
  if (!rotated) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND');
  return { secret };
}
