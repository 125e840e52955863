import { roleAllows, type ApiKeyIssuedDto, type IssueApiKeyRequest, type Role } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import { issueApiKey } from './issue-api-key.use-case';

/**
 * The tenant issues itself a key (POST /api/v1/api-keys). Its role is the one asked, else the issuer's own (a
 * session's or a role-bound key's); an owner or a full-access key asking none issues a full-access key. No one
 * issues a key above their own role: 403 FORBIDDEN_FOR_ROLE.
 */
export async function issueTenantApiKey(
  deps: Pick<GatewayDeps, 'tenants' | 'keys'>,
  input: { tenantId: number; issuerRole: Role | undefined; request: IssueApiKeyRequest },
): Promise<ApiKeyIssuedDto> {
  const { issuerRole, request } = input;
  if (request.role !== undefined && issuerRole !== undefined && !roleAllows(issuerRole, request.role)) {
    throw new AppError('FORBIDDEN_FOR_ROLE', 'A key cannot have a role above your own');
  }
  const role = request.role ?? (issuerRole === 'owner' ? null : (issuerRole ?? null));
  return issueApiKey(deps, input.tenantId, { name: request.name ?? null, role });
}
