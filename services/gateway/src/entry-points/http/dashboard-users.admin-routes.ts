import { inviteDashboardUserSchema, ok } from '@bm/contracts';
import { jsonBody, validate, type RouteDefinition } from '@bm/platform';
import { inviteDashboardUser } from '../../domain/dashboard-users/invite-dashboard-user.use-case';
import type { GatewayDeps } from '../../domain/gateway-deps';
import { mailInvite } from '../../domain/mail/mail-invite';
import type { MailDeps } from '../../domain/mail/mail-deps';
import { dashboardUrlOf } from './dashboard-url';
import { tenantIdOf } from './path-params';

export interface DashboardUserAdminDeps extends Pick<GatewayDeps, 'tenants' | 'users'>, MailDeps {
  /** Where invite links point (…/dashboard); unset, the origin the operator called is used. */
  publicUrl: string | undefined;
  bodyLimit: string;
}

/**
 * POST /admin/v1/tenants/{tenant_id}/users: the operator invites a dashboard user (mounted under /admin/v1). The
 * link is in the answer as before, and mailed to the invitee when the gateway has SMTP_URL (not awaited: a slow
 * or failing mail server never holds or fails the invite).
 */
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
          const invite = await inviteDashboardUser(deps, { tenantId, email, dashboardUrl });
          void mailInvite(deps, invite);
          res.status(201).json(ok(invite));
        },
      ],
    },
  ];
}
