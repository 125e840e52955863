import type { TeamMemberListDto } from '@bm/contracts';
import type { GatewayDeps } from '../gateway-deps';

/** The tenant's dashboard users: the colleagues a conversation can be assigned to. */
export async function listTeam(
  deps: Pick<GatewayDeps, 'users'>,
  tenantId: number,
): Promise<TeamMemberListDto> {
  const users = await deps.users.listForTenant(tenantId);
  return {
    users: users.map((u) => ({
      user_id: u.id,
      email: u.email,
      status: u.passwordHash === null ? 'invited' : 'active',
      created_at: u.createdAt.toISOString(),
    })),
  };
}
