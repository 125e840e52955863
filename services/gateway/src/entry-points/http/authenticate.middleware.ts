import type { NextFunction, Request, Response } from 'express';
import { AppError, currentContext } from '@bm/platform';
import { recordAuditEntry } from '../../domain/audit/record-audit-entry.use-case';
import type { GatewayDeps } from '../../domain/gateway-deps';
import type { RateDecision } from '../../domain/rate-limits/rate-limiter';
import { resolveCredential, type CredentialDeps, type RequestCredential } from './credential';
import { changesState } from '../../domain/state-changing';

export type AuthDeps = CredentialDeps &
  Pick<GatewayDeps, 'rateLimiter' | 'plans' | 'defaultPlan' | 'auditLog'>;

/**
 * Once a state-changing request's answer is over, it goes to the audit log with its status, when a route named
 * its operation (see `authorize`; a path no operation has is not one).
 */
function auditWhenAnswered(deps: AuthDeps, req: Request, res: Response, credential: RequestCredential): void {
  if (!changesState(req.method)) return;
  // Read now: once the answer is over, the socket may be gone (req.ip throws without one).
  const ip = req.ip ?? null;
  const requestId = res.getHeader('x-request-id');
  res.once('close', () => {
    const operationId = res.locals.operationId as string | undefined;
    if (operationId === undefined) return;
    recordAuditEntry(deps, {
      tenantId: credential.tenantId,
      actor: credential.actor,
      operationId,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      target: (res.locals.target as Record<string, string> | undefined) ?? {},
      status: res.statusCode,
      ip,
      requestId: requestId === undefined ? null : String(requestId),
    });
  });
}

// On every plan, the unlimited one included (with a budget no client spends): CONTRACT.md's every authenticated
// answer, and a 401 too (the default plan's budget, uncounted).
function setRateHeaders(res: Response, decision: RateDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
}

/**
 * Authentication (an API key or a dashboard session) comes first under /api/v1 (401 whatever the path), then
 * X-TENANT-ID (403), then the tenant's rate limit (429 with Retry-After). Rate headers go on every authenticated answer.
 */
export function authenticate(deps: AuthDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const defaultPlan = deps.plans.get(deps.defaultPlan)!;
    let credential: Awaited<ReturnType<typeof resolveCredential>>;
    try {
      credential = await resolveCredential(req, deps);
    } catch (err) {
      // No tenant, so nothing is counted; the default plan's budget is stated, as on every other answer.
      setRateHeaders(res, deps.rateLimiter.uncounted(defaultPlan));
      throw err;
    }
    const plan = deps.plans.get(credential.plan) ?? defaultPlan;
    const decision = await deps.rateLimiter.hit(credential.tenantId, plan);
    res.locals.tenantId = credential.tenantId;
    res.locals.role = credential.role;
    res.locals.actor = credential.actor;
    currentContext().tenantId = credential.tenantId;
    auditWhenAnswered(deps, req, res, credential);
    setRateHeaders(res, decision);

    const asked = req.get('x-tenant-id');
    if (asked !== undefined && asked.trim() !== String(credential.tenantId)) {
      throw new AppError('TENANT_FORBIDDEN');
    }
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.resetSeconds));
      throw new AppError('RATE_LIMIT_EXCEEDED', undefined, {
        limit: decision.limit,
        reset_seconds: decision.resetSeconds,
      });
    }
    next();
  };
}
