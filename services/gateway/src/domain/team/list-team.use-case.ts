import type { TeamMemberDto, TeamMemberListDto } from '@bm/contracts';
import type { DashboardUser } from '../ports/dashboard-users.port';
import type { GatewayDeps } from '../gateway-deps';

/** The tenant's dashboard users: the colleagues a conversation can be assigned to. */
export async function listTeam(
  deps: Pick<GatewayDeps, 'users'>,
  tenantId: number,
): Promise<TeamMemberListDto> {
  const users = await deps.users.listForTenant(tenantId);
  return { users: users.map(teamMemberDto) };
}

/** A user as the team list shows them. */
export const teamMemberDto = (u: DashboardUser): TeamMemberDto => ({
  user_id: u.id,
  email: u.email,
  status: u.passwordHash === null ? 'invited' : 'active',
  role: u.role,
  created_at: u.createdAt.toISOString(),
});
