import type { TenantDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { Tenant, TenantRepository } from '../data-access/tenant.repository';
import type { Plan } from './plans';
import type { AuthInvalidation } from './gateway-ports';

const toDto = (t: Tenant): TenantDto => ({
  tenant_id: t.id,
  name: t.name,
  plan: t.plan,
  created_at: t.createdAt.toISOString(),
});

function requirePlan(plans: Map<string, Plan>, plan: string): void {
  if (!plans.has(plan)) {
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', {
      errors: [{ field: 'plan', message: `plan must be one of ${[...plans.keys()].join(', ')}` }],
    });
  }
}

/** Creates a tenant on the given plan (the default plan when none is given). */
export async function createTenant(
  tenants: TenantRepository,
  plans: Map<string, Plan>,
  input: { name: string; plan?: string },
  defaultPlan: string,
): Promise<TenantDto> {
  const plan = input.plan ?? defaultPlan;
  requirePlan(plans, plan);
  return toDto(await tenants.create(input.name, plan));
}

/** Moves a tenant to another plan; every gateway replica applies it at once. */
export async function updateTenantPlan(
  tenants: TenantRepository,
  plans: Map<string, Plan>,
  invalidation: AuthInvalidation,
  tenantId: number,
  plan: string,
): Promise<TenantDto> {
  requirePlan(plans, plan);
  const updated = await tenants.updatePlan(tenantId, plan);
  if (!updated) throw new AppError('TENANT_NOT_FOUND');
  await invalidation.publish();
  return toDto(updated);
}

/** The tenant, or 404 TENANT_NOT_FOUND. */
export async function requireTenant(tenants: TenantRepository, tenantId: number): Promise<TenantDto> {
  const tenant = await tenants.findById(tenantId);
  if (!tenant) throw new AppError('TENANT_NOT_FOUND');
  return toDto(tenant);
}
