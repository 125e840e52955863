import type { DashboardUserDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import type { LiveSession } from '../ports/sessions.port';
import { startSession } from '../sessions/start-session';
import { hashInviteToken } from './invite-token';
import { hashPassword } from './passwords';

/**
 * Sets the password of the invited user, spends the invite and signs the user in; any other session of the
 * user ends (a new invite is how the operator resets a password). An unknown token is 404 NOT_FOUND, a used or
 * expired one 410 INVITE_EXPIRED (CONTRACT.md).
 */
export async function setDashboardPassword(
  deps: Pick<GatewayDeps, 'users' | 'sessions'>,
  input: { token: string; password: string },
  now = new Date(),
): Promise<{ user: DashboardUserDto; sessionId: string; session: LiveSession }> {
  // Hashed before the lookup so the row lock is held for no longer than the update itself.
  const passwordHash = await hashPassword(input.password);
  const outcome = await deps.users.redeemInvite(hashInviteToken(input.token), passwordHash, now);
  if (!outcome) throw new AppError('NOT_FOUND', 'No such invite');
  if (!outcome.user) throw new AppError('INVITE_EXPIRED');
  const { user } = outcome;
  await deps.sessions.revokeAllOf(user.id);
  return {
    user: { user_id: user.id, tenant_id: user.tenantId, email: user.email, role: user.role },
    ...(await startSession(deps, user)),
  };
}
