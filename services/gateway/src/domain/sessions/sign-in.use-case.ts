import type { Role } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { verifyPassword } from '../dashboard-users/passwords';
import type { GatewayDeps } from '../gateway-deps';
import type { LiveSession } from '../ports/sessions.port';
import { startSession } from './start-session';

export type SignInOutcome =
  | { kind: 'signed-in'; sessionId: string; session: LiveSession; role: Role }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Signs a dashboard user in: a new random 32-byte session id each time (never one the browser brought), the
 * session's own CSRF token. A wrong password, an unknown email and a user who never set a password all cost one
 * scrypt hash and answer the same 401 INVALID_CREDENTIALS.
 */
export async function signIn(
  deps: Pick<GatewayDeps, 'users' | 'sessions' | 'throttle'>,
  input: { email: string; password: string; ip: string },
): Promise<SignInOutcome> {
  const wait = await deps.throttle.attempt(input.email, input.ip);
  if (wait !== undefined) return { kind: 'throttled', retryAfterSeconds: wait };
  const user = await deps.users.findByEmail(input.email);
  const valid = await verifyPassword(input.password, user?.passwordHash ?? null);
  if (!user || !valid) throw new AppError('INVALID_CREDENTIALS');
  await deps.throttle.succeeded(input.email);
  return { kind: 'signed-in', ...(await startSession(deps, user)), role: user.role };
}
