import { randomBytes } from 'node:crypto';
import type { Role } from '@bm/contracts';
import { ulid } from 'ulidx';
import { SessionStore } from '../../src/data-access/session.store';
import { newEmail } from './dashboard-users';
import { createTenantWithKey, type TestGateway } from './gateway';

export interface RoleSession {
  tenantId: number;
  userId: string;
  email: string;
  apiKey: string;
  /** Cookie, CSRF token and Origin: what the dashboard sends on any request. */
  headers: Record<string, string>;
}

/**
 * A dashboard user of `role` signed in, made without the invite and scrypt (the invite and sign-in tests cover
 * those): the user row is written as the invite would, the session as sign-in would.
 */
export async function sessionAs(gw: TestGateway, role: Role, tenantId?: number): Promise<RoleSession> {
  const tenant = tenantId === undefined ? await createTenantWithKey(gw.url) : { tenantId, apiKey: '' };
  const userId = ulid();
  const email = newEmail();
  await gw.gateway.dataSource.query(
    `INSERT INTO gateway.dashboard_users (id, tenant_id, email, password_hash, role) VALUES ($1, $2, $3, 'x', $4)`,
    [userId, tenant.tenantId, email, role],
  );
  const sessionId = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  await new SessionStore(gw.gateway.redis, 600_000, 3_600_000).create(sessionId, {
    userId,
    tenantId: tenant.tenantId,
    email,
    csrfToken,
    createdAt: Date.now(),
  });
  return {
    tenantId: tenant.tenantId,
    userId,
    email,
    apiKey: tenant.apiKey,
    headers: {
      Cookie: `bm_session=${sessionId}`,
      'X-CSRF-Token': csrfToken,
      Origin: new URL(gw.url).origin,
    },
  };
}
