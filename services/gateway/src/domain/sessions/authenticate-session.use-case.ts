import { timingSafeEqual } from 'node:crypto';
import type { Role } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import type { LiveSession } from '../ports/sessions.port';

/** What the request tells about where it came from and what it carries, read by the entry point. */
export interface SessionRequest {
  sessionId: string;
  /** POST, PUT, PATCH and DELETE change state; GET, HEAD and OPTIONS do not. */
  changesState: boolean;
  csrfHeader: string | undefined;
  /** True when `Origin` names this very origin or `Sec-Fetch-Site` says `same-origin`. */
  sameOrigin: boolean;
}

export interface SessionCredential {
  session: LiveSession;
  plan: string;
  /** The user's role now (read at each request: a change applies at once). */
  role: Role;
}

function tokensMatch(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 403 CSRF_FAILED for a state-changing request without the session's token or from another origin. */
export function requireCsrf(request: SessionRequest, session: LiveSession): void {
  if (request.changesState && !(request.sameOrigin && tokensMatch(request.csrfHeader, session.csrfToken))) {
    throw new AppError('CSRF_FAILED');
  }
}

/**
 * A session cookie authenticates as an API key of its tenant does. A state-changing request must also carry
 * the session's CSRF token and come from the same origin (403 CSRF_FAILED): a cookie alone, which a browser
 * attaches to another site's form post, changes nothing. A session that ended, or whose user was removed, is
 * 401 SESSION_EXPIRED.
 */
export async function authenticateSession(
  deps: Pick<GatewayDeps, 'sessions' | 'tenants' | 'users'>,
  request: SessionRequest,
): Promise<SessionCredential> {
  const session = await deps.sessions.touch(request.sessionId);
  if (!session) throw new AppError('SESSION_EXPIRED');
  requireCsrf(request, session);
  const [tenant, user] = await Promise.all([
    deps.tenants.findById(session.tenantId),
    deps.users.findInTenant(session.tenantId, session.userId),
  ]);
  if (!user) await deps.sessions.revoke(request.sessionId);
  if (!tenant || !user) throw new AppError('SESSION_EXPIRED');
  return { session, plan: tenant.plan, role: user.role };
}
