import { roleAllows, type Role, type TeamInviteDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { inviteDashboardUser } from '../dashboard-users/invite-dashboard-user.use-case';
import type { GatewayDeps } from '../gateway-deps';

/**
 * An owner or admin invites a colleague with a role (POST /api/v1/users): the same single-use link as the
 * operator's invite, in this answer only (a mailer can send `invite_url` instead). No one grants a role above
 * their own (an admin cannot make owners: 403 FORBIDDEN_FOR_ROLE). Inviting a colleague who has not set a password
 * yet sends a new link (the old one stops working); any other email that has an account, in this tenant or
 * another, is 409 CONFLICT, so an invite can never reset a colleague's password.
 */
export async function inviteTeamMember(
  deps: Pick<GatewayDeps, 'tenants' | 'users'>,
  input: {
    tenantId: number;
    /** undefined: a full-access API key. */
    inviterRole: Role | undefined;
    email: string;
    role: Role;
    dashboardUrl: string;
  },
): Promise<TeamInviteDto> {
  if (input.inviterRole !== undefined && !roleAllows(input.inviterRole, input.role)) {
    throw new AppError('FORBIDDEN_FOR_ROLE', 'You cannot grant a role above your own');
  }
  const existing = await deps.users.findByEmail(input.email);
  // Still invited here: a new link replaces the old one (a lost or expired invite), with the role asked now.
  const reinvite =
    existing !== undefined &&
    existing.tenantId === input.tenantId &&
    existing.passwordHash === null &&
    (input.inviterRole === undefined || roleAllows(input.inviterRole, existing.role));
  if (existing && !reinvite) {
    throw new AppError('CONFLICT', 'A dashboard user with this email already exists');
  }
  const invite = await inviteDashboardUser(deps, input);
  if (existing && existing.role !== input.role) {
    await deps.users.changeRole(input.tenantId, existing.id, input.role);
  }
  return {
    user_id: invite.user_id,
    email: invite.email,
    role: input.role,
    invite_url: invite.invite_url,
    invite_expires_at: invite.invite_expires_at,
  };
}
