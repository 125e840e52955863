import type { ApiKeyRevokedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';

/** Revokes a key; it stops working on every replica at once. Revoking twice is harmless. */
export async function revokeApiKey(
  deps: Pick<GatewayDeps, 'keys' | 'invalidation'>,
  keyId: string,
): Promise<ApiKeyRevokedDto> {
  const revokedAt = await deps.keys.revoke(keyId);
  if (!revokedAt && !(await deps.keys.findCredential(keyId))) throw new AppError('API_KEY_NOT_FOUND');
  await deps.invalidation.publish();
  return { key_id: keyId, revoked: true };
}

/** Revokes one of the tenant's keys; another tenant's key is as unknown as a key that never was (404). */
export async function revokeTenantApiKey(
  deps: Pick<GatewayDeps, 'keys' | 'invalidation'>,
  tenantId: number,
  keyId: string,
): Promise<ApiKeyRevokedDto> {
  const credential = await deps.keys.findCredential(keyId);
  if (credential?.tenantId !== tenantId) throw new AppError('API_KEY_NOT_FOUND');
  return revokeApiKey(deps, keyId);
}
