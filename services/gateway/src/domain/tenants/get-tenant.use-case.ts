import type { TenantDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import { tenantDto } from './tenant-rules';

/** The tenant, or 404 TENANT_NOT_FOUND. */
export async function getTenant(deps: Pick<GatewayDeps, 'tenants'>, tenantId: number): Promise<TenantDto> {
  const tenant = await deps.tenants.findById(tenantId);
  if (!tenant) throw new AppError('TENANT_NOT_FOUND');
  return tenantDto(tenant);
}
