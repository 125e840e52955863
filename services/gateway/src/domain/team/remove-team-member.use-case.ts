import type { TeamMemberRemovedDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';

/**
 * An owner removes a colleague (DELETE /api/v1/users/{id}): the account and its invites go, and every session of
 * theirs ends at once on every replica. Another tenant's user is 404 NOT_FOUND; the last owner who has set a
 * password is 409 LAST_OWNER.
 */
export async function removeTeamMember(
  deps: Pick<GatewayDeps, 'users' | 'sessions'>,
  input: { tenantId: number; userId: string },
): Promise<TeamMemberRemovedDto> {
  const outcome = await deps.users.remove(input.tenantId, input.userId);
  switch (outcome.kind) {
    case 'not-found':
      throw new AppError('NOT_FOUND', 'No such user');
    case 'last-owner':
      throw new AppError('LAST_OWNER');
    case 'done':
      // Also checked at each request (the user is looked up), so a session made meanwhile cannot outlive this.
      await deps.sessions.revokeAllOf(input.userId);
      return { user_id: input.userId, removed: true };
  }
}
