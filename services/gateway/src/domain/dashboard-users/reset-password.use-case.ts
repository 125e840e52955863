import type { Role } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import type { LiveSession } from '../ports/sessions.port';
import { startSession } from '../sessions/start-session';
import { hashInviteToken } from './invite-token';
import { hashPassword } from './passwords';

/**
 * Sets a new password with a reset link's token and signs the user in; every other session of the user ends.
 * An unknown token is 404 NOT_FOUND, a used, voided or expired one 410 RESET_LINK_EXPIRED.
 */
export async function resetPassword(
  deps: Pick<GatewayDeps, 'resets' | 'sessions' | 'throttle'>,
  input: { token: string; password: string },
  now = new Date(),
): Promise<{ sessionId: string; session: LiveSession; role: Role }> {
  const tokenHash = hashInviteToken(input.token);
  // Checked first: a guessed or spent token costs no scrypt hash (128 MiB), which anyone could otherwise ask for.
  const state = await deps.resets.stateOf(tokenHash, now);
  if (state === 'unknown') throw new AppError('NOT_FOUND', 'No such reset link');
  if (state === 'spent') throw new AppError('RESET_LINK_EXPIRED');
  // Hashed before the locking redeem so the row lock is held for no longer than the update itself; the redeem
  // checks again (a concurrent use of the same link).
  const passwordHash = await hashPassword(input.password);
  const outcome = await deps.resets.redeem(tokenHash, passwordHash, now);
  if (!outcome) throw new AppError('NOT_FOUND', 'No such reset link');
  if (!outcome.user) throw new AppError('RESET_LINK_EXPIRED');
  await deps.sessions.revokeAllOf(outcome.user.id);
  // The password changed: earlier wrong guesses at the old one no longer hold the new one back.
  await deps.throttle.succeeded(outcome.user.email);
  return { ...(await startSession(deps, outcome.user)), role: outcome.user.role };
}
