import type { ApiKeyListDto } from '@bm/contracts';
import type { GatewayDeps } from '../gateway-deps';

/** The tenant's own keys with when each was last used; the keys themselves are never shown again. */
export async function listTenantApiKeys(
  deps: Pick<GatewayDeps, 'keys' | 'keyUsage'>,
  tenantId: number,
): Promise<ApiKeyListDto> {
  const keys = await deps.keys.listForTenant(tenantId);
  const lastUsed = await deps.keyUsage.lastUsed(keys.map((k) => k.keyId));
  return {
    api_keys: keys.map((k) => ({
      key_id: k.keyId,
      created_at: k.createdAt.toISOString(),
      last_used_at: lastUsed.get(k.keyId)?.toISOString() ?? null,
      revoked_at: k.revokedAt?.toISOString() ?? null,
      name: k.name,
      role: k.role,
    })),
  };
}
