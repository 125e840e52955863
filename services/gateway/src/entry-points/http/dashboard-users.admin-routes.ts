import type { Request } from 'express';
import { inviteDashboardUserSchema, ok } from '@bm/contracts';
import { jsonBody, validate, type RouteDefinition } from '@bm/platform';
import { inviteDashboardUser } from '../../domain/dashboard-users/invite-dashboard-user.use-case';
import type { GatewayDeps } from '../../domain/gateway-deps';
import { tenantIdOf } from './path-params';

export interface DashboardUserAdminDeps extends Pick<GatewayDeps, 'tenants' | 'users'> {
  /** Where invite links point (…/dashboard); unset, the origin the operator called is used. */
  publicUrl: string | undefined;
  bodyLimit: string;
}

/** Where the dashboard is, for invite links: PUBLIC_URL's, else the origin the caller used. */
export function dashboardUrlOf(req: Request, publicUrl: string | undefined): string {
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
          const tenantId = tenantIdOf(req);
          const { email } = validate(inviteDashboardUserSchema, req.body ?? {});
          const dashboardUrl = dashboardUrlOf(req, deps.publicUrl);
          res.status(201).json(ok(await inviteDashboardUser(deps, { tenantId, email, dashboardUrl })));
        },
      ],
    },
  ];
}
