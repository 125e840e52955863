import { randomBytes } from 'node:crypto';
import type { GatewayDeps } from '../gateway-deps';
import type { DashboardUser } from '../ports/dashboard-users.port';
import type { LiveSession } from '../ports/sessions.port';

/** A new session of the user: a new random 32-byte id (never one the browser brought), its own CSRF token. */
export async function startSession(
  deps: Pick<GatewayDeps, 'sessions'>,
  user: Pick<DashboardUser, 'id' | 'tenantId' | 'email'>,
): Promise<{ sessionId: string; session: LiveSession }> {
  const sessionId = randomBytes(32).toString('base64url');
  const session = await deps.sessions.create(sessionId, {
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAt: Date.now(),
  });
  return { sessionId, session };
}
