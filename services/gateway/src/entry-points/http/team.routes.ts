import { auditLogQuerySchema, inviteTeamMemberSchema, ok, updateTeamMemberSchema } from '@bm/contracts';
import { jsonBody, validate, type RouteDefinition } from '@bm/platform';
import { listAuditLog } from '../../domain/audit/list-audit-log.use-case';
import type { GatewayDeps } from '../../domain/gateway-deps';
import { changeTeamMemberRole } from '../../domain/team/change-team-member-role.use-case';
import { inviteTeamMember } from '../../domain/team/invite-team-member.use-case';
import { listTeam } from '../../domain/team/list-team.use-case';
import { removeTeamMember } from '../../domain/team/remove-team-member.use-case';
import { mailInvite } from '../../domain/mail/mail-invite';
import type { MailDeps } from '../../domain/mail/mail-deps';
import { dashboardUrlOf } from './dashboard-url';
import { userIdOf } from './path-params';
import { roleOf, tenantOf } from './tenant-api-keys.routes';

export interface TeamDeps extends Pick<GatewayDeps, 'tenants' | 'users' | 'sessions' | 'auditLog'>, MailDeps {
  /** Where invite links point (…/dashboard); unset, the origin the caller used. */
  publicUrl: string | undefined;
  bodyLimit: string;
}

/**
 * /api/v1/users and /api/v1/audit-log: the authenticated tenant's team and what it changed, never another
 * tenant's. Who may call each is OPERATION_ROLES' (checked before these handlers).
 */
export function teamRoutes(deps: TeamDeps): RouteDefinition[] {
  const json = jsonBody(deps.bodyLimit);
  return [
    {
      method: 'GET',
      path: '/api/v1/users',
      handlers: [async (_req, res) => res.json(ok(await listTeam(deps, tenantOf(res))))],
    },
    {
      method: 'POST',
      path: '/api/v1/users',
      handlers: [
        ...json,
        async (req, res) => {
          const { email, role } = validate(inviteTeamMemberSchema, req.body ?? {});
          const invite = await inviteTeamMember(deps, {
            tenantId: tenantOf(res),
            inviterRole: roleOf(res),
            email,
            role,
            dashboardUrl: dashboardUrlOf(req, deps.publicUrl),
          });
          // Mailed when the gateway has SMTP_URL, not awaited: a slow mail server never holds the invite.
          void mailInvite(deps, invite);
          res.status(201).json(ok(invite));
        },
      ],
    },
    {
      method: 'PATCH',
      path: '/api/v1/users/:userId',
      handlers: [
        ...json,
        async (req, res) => {
          const userId = userIdOf(req);
          const { role } = validate(updateTeamMemberSchema, req.body ?? {});
          res.json(ok(await changeTeamMemberRole(deps, { tenantId: tenantOf(res), userId, role })));
        },
      ],
    },
    {
      method: 'DELETE',
      path: '/api/v1/users/:userId',
      handlers: [
        async (req, res) =>
          res.json(ok(await removeTeamMember(deps, { tenantId: tenantOf(res), userId: userIdOf(req) }))),
      ],
    },
    {
      method: 'GET',
      path: '/api/v1/audit-log',
      handlers: [
        async (req, res) => {
          const query = validate(auditLogQuerySchema, req.query, { prefix: 'query' });
          res.json(ok(await listAuditLog(deps, tenantOf(res), query)));
        },
      ],
    },
  ];
}
