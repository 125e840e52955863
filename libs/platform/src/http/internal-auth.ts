import { timingSafeEqual, createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { currentContext } from '../context';
import { AppError } from '../errors';

/** Compares two secrets in constant time (hashing first so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * Internal services accept only calls carrying the gateway's credential; the tenant the gateway
 * authenticated arrives in a header and is put on `res.locals.tenantId` and the log context.
 */
export function requireInternalCaller(token: string) {
  const expected = createHash('sha256').update(token).digest();
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.get(INTERNAL_HEADERS.token);
    if (given === undefined || !timingSafeEqual(createHash('sha256').update(given).digest(), expected)) {
      next(new AppError('INVALID_API_KEY'));
      return;
    }
    const tenantHeader = req.get(INTERNAL_HEADERS.tenantId);
    if (tenantHeader !== undefined) {
      const tenantId = Number(tenantHeader);
      if (!Number.isSafeInteger(tenantId) || tenantId < 1) {
        next(new AppError('INVALID_API_KEY'));
        return;
      }
      res.locals.tenantId = tenantId;
      currentContext().tenantId = tenantId;
    }
    next();
  };
}

/** The authenticated tenant of an internal call; throws when the route needs one and none came. */
export function tenantOf(res: Response): number {
  const tenantId = res.locals.tenantId as number | undefined;
  if (tenantId === undefined) throw new AppError('INVALID_API_KEY');
  return tenantId;
}
