import type { GatewayDeps } from '../gateway-deps';
import { requireCsrf, type SessionRequest } from './authenticate-session.use-case';

/**
 * Revokes the session on every replica at once. Signing out of a session that already ended does nothing and
 * succeeds; a live one needs its CSRF token like any state-changing request (no other site can sign you out).
 */
export async function signOut(deps: Pick<GatewayDeps, 'sessions'>, request: SessionRequest): Promise<void> {
  const session = await deps.sessions.touch(request.sessionId);
  if (!session) return;
  requireCsrf(request, session);
  await deps.sessions.revoke(request.sessionId);
}
