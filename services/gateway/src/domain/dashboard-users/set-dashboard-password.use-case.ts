import type { DashboardUserDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import { hashInviteToken } from './invite-token';
import { hashPassword } from './passwords';

/**
 * Sets the password of the invited user and spends the invite: an unknown token is 404 NOT_FOUND, a used or
 * expired one 410 INVITE_EXPIRED (CONTRACT.md).
 */
export async function setDashboardPassword(
  deps: Pick<GatewayDeps, 'users'>,
  input: { token: string; password: string },
  now = new Date(),
): Promise<DashboardUserDto> {
  // Hashed before the lookup so the row lock is held for no longer than the update itself.
  const passwordHash = await hashPassword(input.password);
  const outcome = await deps.users.redeemInvite(hashInviteToken(input.token), passwordHash, now);
  if (!outcome) throw new AppError('NOT_FOUND', 'No such invite');
  if (!outcome.user) throw new AppError('INVITE_EXPIRED');
  const { user } = outcome;
  return { user_id: user.id, tenant_id: user.tenantId, email: user.email, role: user.role };
}
