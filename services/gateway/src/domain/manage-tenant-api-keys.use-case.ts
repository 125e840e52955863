import type { ApiKeyListDto, ApiKeyRevokedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { ApiKeyRepository } from '../data-access/api-key.repository';
import type { KeyUsageStore } from '../data-access/key-usage.store';
import type { AuthInvalidation } from './gateway-ports';
import { revokeApiKey } from './manage-api-keys.use-case';

/** The tenant's own keys with when each was last used; the keys themselves are never shown again. */
export async function listTenantApiKeys(
  deps: { keys: ApiKeyRepository; usage: KeyUsageStore },
  tenantId: number,
): Promise<ApiKeyListDto> {
  const keys = await deps.keys.listForTenant(tenantId);
  const lastUsed = await deps.usage.lastUsed(keys.map((k) => k.keyId));
  return {
    api_keys: keys.map((k) => ({
      key_id: k.keyId,
      created_at: k.createdAt.toISOString(),
      last_used_at: lastUsed.get(k.keyId)?.toISOString() ?? null,
      revoked_at: k.revokedAt?.toISOString() ?? null,
    })),
  };
}

/** Revokes one of the tenant's keys; another tenant's key is as unknown as a key that never was (404). */
export async function revokeTenantApiKey(
  deps: { keys: ApiKeyRepository; invalidation: AuthInvalidation },
  tenantId: number,
  keyId: string,
): Promise<ApiKeyRevokedDto> {
  const credential = await deps.keys.findCredential(keyId);
  if (credential?.tenantId !== tenantId) throw new AppError('API_KEY_NOT_FOUND');
  return revokeApiKey(deps.keys, deps.invalidation, keyId);
}
