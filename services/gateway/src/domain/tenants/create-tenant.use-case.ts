import type { TenantDto } from '@bm/contracts';
import type { GatewayDeps } from '../gateway-deps';
import { requireKnownPlan, tenantDto } from './tenant-rules';

/** Creates a tenant on the given plan (the default plan when none is given). */
export async function createTenant(
  deps: Pick<GatewayDeps, 'tenants' | 'plans' | 'defaultPlan'>,
  input: { name: string; plan?: string },
): Promise<TenantDto> {
  const plan = input.plan ?? deps.defaultPlan;
  requireKnownPlan(deps.plans, plan);
  return tenantDto(await deps.tenants.create(input.name, plan));
}
