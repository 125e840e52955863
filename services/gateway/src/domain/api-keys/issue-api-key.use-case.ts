import type { ApiKeyIssuedDto, Role } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import { generateApiKey } from './api-key';

/**
 * Issues a key for the tenant, for the operator (POST /admin/v1/tenants/{id}/api-keys) and for the tenant itself
 * (POST /api/v1/api-keys) alike; the key is in this answer only, the database keeps its hash.
 */
export async function issueApiKey(
  deps: Pick<GatewayDeps, 'tenants' | 'keys'>,
  tenantId: number,
  /** The tenant's own keys have a name and a role (null: full access), and its answer shows them. */
  details?: { name: string | null; role: Role | null },
): Promise<ApiKeyIssuedDto> {
  if (!(await deps.tenants.findById(tenantId))) throw new AppError('TENANT_NOT_FOUND');
  const generated = generateApiKey();
  const createdAt = await deps.keys.insert(generated.keyId, tenantId, generated.secretHash, details);
  return {
    key_id: generated.keyId,
    api_key: generated.apiKey,
    tenant_id: tenantId,
    created_at: createdAt.toISOString(),
    ...details,
  };
}
