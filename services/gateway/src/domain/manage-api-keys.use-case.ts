import type { ApiKeyIssuedDto, ApiKeyRevokedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { ApiKeyRepository } from '../data-access/api-key.repository';
import type { TenantRepository } from '../data-access/tenant.repository';
import { generateApiKey } from './api-key';
import type { AuthInvalidation } from './gateway-ports';

/** Issues a key for the tenant; the key is in this answer only, the database keeps its hash. */
export async function issueApiKey(
  tenants: TenantRepository,
  keys: ApiKeyRepository,
  tenantId: number,
): Promise<ApiKeyIssuedDto> {
  if (!(await tenants.findById(tenantId))) throw new AppError('TENANT_NOT_FOUND');
  const generated = generateApiKey();
  const createdAt = await keys.insert(generated.keyId, tenantId, generated.secretHash);
  return {
    key_id: generated.keyId,
    api_key: generated.apiKey,
    tenant_id: tenantId,
    created_at: createdAt.toISOString(),
  };
}

/** Revokes a key; it stops working on every replica at once. Revoking twice is harmless. */
export async function revokeApiKey(
  keys: ApiKeyRepository,
  invalidation: AuthInvalidation,
  keyId: string,
): Promise<ApiKeyRevokedDto> {
  const revokedAt = await keys.revoke(keyId);
  if (!revokedAt && !(await keys.findCredential(keyId))) throw new AppError('API_KEY_NOT_FOUND');
  await invalidation.publish();
  return { key_id: keyId, revoked: true };
}
