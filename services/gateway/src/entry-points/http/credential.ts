import type { Request } from 'express';
import type { KeyUsageStore } from '../../data-access/key-usage.store';
import type { SessionStore } from '../../data-access/session.store';
import type { TenantRepository } from '../../data-access/tenant.repository';
import type { ApiKeyAuthenticator } from '../../domain/authenticate-api-key.use-case';
import { authenticateSession } from '../../domain/authenticate-session.use-case';
import { sessionRequestOf } from './dashboard-auth.routes';
import { sessionIdOf } from './session-cookie';

export interface CredentialDeps {
  authenticator: ApiKeyAuthenticator;
  /** Dashboard sessions; without them only API keys authenticate. */
  dashboard?: { sessions: SessionStore; tenants: TenantRepository };
  keyUsage?: KeyUsageStore;
}

/** Who a /api/v1 request acts for, and on which plan. */
export interface RequestCredential {
  tenantId: number;
  plan: string;
}

/**
 * An `Authorization` header is an API key, whatever cookie comes with it; without one, a dashboard session
 * cookie stands in for a key of its tenant (with CSRF checks on state-changing requests); without either, 401.
 */
export async function resolveCredential(req: Request, deps: CredentialDeps): Promise<RequestCredential> {
  const header = req.get('authorization');
  const sessionId = header === undefined ? sessionIdOf(req) : undefined;
  if (sessionId !== undefined && deps.dashboard) {
    const { session, plan } = await authenticateSession(deps.dashboard, sessionRequestOf(req, sessionId));
    return { tenantId: session.tenantId, plan };
  }
  const credential = await deps.authenticator.authenticate(header);
  deps.keyUsage?.record(credential.keyId);
  return credential;
}
