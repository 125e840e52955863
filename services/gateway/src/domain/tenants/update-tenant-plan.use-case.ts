import type { TenantDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import { requireKnownPlan, tenantDto } from './tenant-rules';

/** Moves a tenant to another plan; every gateway replica applies it at once. */
export async function updateTenantPlan(
  deps: Pick<GatewayDeps, 'tenants' | 'plans' | 'invalidation'>,
  tenantId: number,
  plan: string,
): Promise<TenantDto> {
  requireKnownPlan(deps.plans, plan);
  const updated = await deps.tenants.updatePlan(tenantId, plan);
  if (!updated) throw new AppError('TENANT_NOT_FOUND');
  await deps.invalidation.publish();
  return tenantDto(updated);
}
