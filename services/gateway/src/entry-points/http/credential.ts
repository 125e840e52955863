import type { Request } from 'express';
import type { Role } from '@bm/contracts';
import type { GatewayDeps } from '../../domain/gateway-deps';
import type { Actor } from '../../domain/ports/audit-log.port';
import { authenticateSession } from '../../domain/sessions/authenticate-session.use-case';
import { sessionRequestOf } from './dashboard-auth.routes';
import { sessionIdOf } from './session-cookie';

export type CredentialDeps = Pick<
  GatewayDeps,
  'authenticator' | 'sessions' | 'tenants' | 'keyUsage' | 'users'
>;

/** Who a /api/v1 request acts for, on which plan, and with which role (undefined: full tenant access). */
export interface RequestCredential {
  tenantId: number;
  plan: string;
  role: Role | undefined;
  actor: Actor;
}

/**
 * An `Authorization` header is an API key, whatever cookie comes with it; without one, a dashboard session
 * cookie stands in for a key of its tenant (with CSRF checks on state-changing requests); without either, 401.
 */
export async function resolveCredential(req: Request, deps: CredentialDeps): Promise<RequestCredential> {
  const header = req.get('authorization');
  const sessionId = header === undefined ? sessionIdOf(req) : undefined;
  if (sessionId !== undefined) {
    const { session, plan, role } = await authenticateSession(deps, sessionRequestOf(req, sessionId));
    return {
      tenantId: session.tenantId,
      plan,
      role,
      actor: { type: 'user', userId: session.userId, email: session.email },
    };
  }
  const credential = await deps.authenticator.authenticate(header);
  deps.keyUsage.record(credential.keyId);
  return {
    tenantId: credential.tenantId,
    plan: credential.plan,
    role: credential.role ?? undefined,
    actor: { type: 'api_key', keyId: credential.keyId },
  };
}
