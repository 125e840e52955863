import type { Request } from 'express';
import { integerIdSchema, ulidSchema } from '@bm/contracts';
import { AppError } from '@bm/platform';

// gateway.tenants.id is a PostgreSQL integer: a larger id names no tenant (and would fail the query).
const tenantIdSchema = integerIdSchema.max(2_147_483_647);

/** The `:tenantId` of an operator path; one that cannot be a tenant's id names no tenant (404). */
export function tenantIdOf(req: Request): number {
  const id = Number(req.params.tenantId);
  if (tenantIdSchema.validate(id).error) throw new AppError('TENANT_NOT_FOUND');
  return id;
}

/** The `:keyId` of the path; one not shaped like a key id names no key (404). */
export function keyIdOf(req: Request): string {
  const keyId = String(req.params.keyId);
  if (ulidSchema.validate(keyId).error) throw new AppError('API_KEY_NOT_FOUND');
  return keyId;
}

/** The `:userId` of the path; one not shaped like a user id names no user (404). */
export function userIdOf(req: Request): string {
  const userId = String(req.params.userId);
  if (ulidSchema.validate(userId).error) throw new AppError('NOT_FOUND', 'No such user');
  return userId;
}
