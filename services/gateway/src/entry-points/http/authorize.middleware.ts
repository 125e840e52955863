import type { NextFunction, Request, Response } from 'express';
import { minimumRoleFor, roleAllows, type Role } from '@bm/contracts';
import { AppError } from '@bm/platform';

/**
 * The role check of one /api/v1 operation, first of its route's handlers (before any body is read or forwarded):
 * a session, or a key issued with a role, below the operation's lowest role in OPERATION_ROLES is 403
 * FORBIDDEN_FOR_ROLE and nothing changes. It also names the operation and its path's ids for the audit log.
 */
export function authorize(operationId: string) {
  const minimum = minimumRoleFor(operationId);
  return (req: Request, res: Response, next: NextFunction): void => {
    res.locals.operationId = operationId;
    res.locals.target = { ...req.params };
    const role = res.locals.role as Role | undefined;
    if (role !== undefined && !roleAllows(role, minimum)) throw new AppError('FORBIDDEN_FOR_ROLE');
    next();
  };
}
