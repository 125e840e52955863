import type { Role, TeamMemberDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import { teamMemberDto } from './list-team.use-case';

/**
 * An owner changes a colleague's role (PATCH /api/v1/users/{id}); it applies to their very next request. Another
 * tenant's user is 404 NOT_FOUND; demoting the last owner who has set a password is 409 LAST_OWNER.
 */
export async function changeTeamMemberRole(
  deps: Pick<GatewayDeps, 'users'>,
  input: { tenantId: number; userId: string; role: Role },
): Promise<TeamMemberDto> {
  const outcome = await deps.users.changeRole(input.tenantId, input.userId, input.role);
  switch (outcome.kind) {
    case 'not-found':
      throw new AppError('NOT_FOUND', 'No such user');
    case 'last-owner':
      throw new AppError('LAST_OWNER');
    case 'done':
      return teamMemberDto(outcome.user);
  }
}
