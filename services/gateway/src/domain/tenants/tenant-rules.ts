import type { TenantDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { Tenant } from '../ports/tenants.port';
import type { Plan } from '../rate-limits/plans';

export const tenantDto = (t: Tenant): TenantDto => ({
  tenant_id: t.id,
  name: t.name,
  plan: t.plan,
  created_at: t.createdAt.toISOString(),
});

/** 400 VALIDATION_ERROR on the `plan` field when the plan is not one of the configured ones. */
export function requireKnownPlan(plans: Map<string, Plan>, plan: string): void {
  if (!plans.has(plan)) {
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', {
      errors: [{ field: 'plan', message: `plan must be one of ${[...plans.keys()].join(', ')}` }],
    });
  }
}
