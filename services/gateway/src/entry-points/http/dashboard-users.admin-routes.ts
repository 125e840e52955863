import type { Request } from 'express';
import { inviteDashboardUserSchema, integerIdSchema, ok } from '@bm/contracts';
import { AppError, jsonBody, validate, type RouteDefinition } from '@bm/platform';
import type { DashboardUserRepository } from '../../data-access/dashboard-user.repository';
import type { TenantRepository } from '../../data-access/tenant.repository';
import { inviteDashboardUser } from '../../domain/invite-dashboard-user.use-case';

export interface DashboardUserAdminDeps {
  tenants: TenantRepository;
  users: DashboardUserRepository;
  /** Where invite links point (…/dashboard); unset, the origin the operator called is used. */
  publicUrl: string | undefined;
  bodyLimit: string;
}

function dashboardUrlOf(req: Request, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return `${publicUrl.replace(/\/+$/, '')}/dashboard`;
  const proto = req.get('x-forwarded-proto')?.split(',')[0]?.trim() ?? req.protocol;
  const host = req.get('x-forwarded-host')?.split(',')[0]?.trim() ?? req.get('host');
  return `${proto}://${host}/dashboard`;
}

/** POST /admin/v1/tenants/{tenant_id}/users: the operator invites a dashboard user (mounted under /admin/v1). */
export function dashboardUserAdminRoutes(deps: DashboardUserAdminDeps): RouteDefinition[] {
  return [
    {
      method: 'POST',
      path: '/tenants/:tenantId/users',
      handlers: [
        ...jsonBody(deps.bodyLimit),
        async (req, res) => {
          const tenantId = Number(req.params.tenantId);
          if (integerIdSchema.max(2_147_483_647).validate(tenantId).error)
            throw new AppError('TENANT_NOT_FOUND');
          const { email } = validate(inviteDashboardUserSchema, req.body ?? {});
          const dashboardUrl = dashboardUrlOf(req, deps.publicUrl);
          res.status(201).json(ok(await inviteDashboardUser(deps, { tenantId, email, dashboardUrl })));
        },
      ],
    },
  ];
}
