import { randomBytes } from 'node:crypto';
import type { DashboardInviteDto, Role } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { ulid } from 'ulidx';
import type { GatewayDeps } from '../gateway-deps';
import { hashInviteToken, INVITE_TTL_MS } from './invite-token';

/**
 * Invites a person to the tenant's dashboard: a single-use link valid 24 h, in this answer only. Inviting the
 * same email again replaces the link (also after the password was set: it is how a forgotten one is reset); an
 * email already used by another tenant's user is 409 CONFLICT. A new user gets `role` (owner unless given: the
 * operator's invites make owners); an existing one keeps theirs.
 */
export async function inviteDashboardUser(
  deps: Pick<GatewayDeps, 'tenants' | 'users'>,
  input: { tenantId: number; email: string; dashboardUrl: string; role?: Role },
  now = new Date(),
): Promise<DashboardInviteDto> {
  if (!(await deps.tenants.findById(input.tenantId))) throw new AppError('TENANT_NOT_FOUND');
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
  const user = await deps.users.upsertWithInvite(
    ulid(),
    input.tenantId,
    input.email,
    hashInviteToken(token),
    expiresAt,
    input.role,
  );
  if (user.tenantId !== input.tenantId) {
    throw new AppError('CONFLICT', 'A dashboard user with this email belongs to another tenant');
  }
  return {
    user_id: user.id,
    tenant_id: user.tenantId,
    email: user.email,
    // In the fragment: browsers send it to no server, so the token stays out of access logs and Referer.
    invite_url: `${input.dashboardUrl}/set-password#token=${token}`,
    invite_expires_at: expiresAt.toISOString(),
  };
}
