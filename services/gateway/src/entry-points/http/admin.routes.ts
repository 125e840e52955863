import { Router, type NextFunction, type Request, type Response } from 'express';
import {
  createTenantSchema,
  FORWARDED_ADMIN_ROUTES,
  type InternalService,
  replayDeadLettersQuerySchema,
  showDeadLettersQuerySchema,
  updateTenantSchema,
  ok,
} from '@bm/contracts';
import { AppError, defineRoutes, jsonBody, safeEqual, validate, type RouteDefinition } from '@bm/platform';
import { issueApiKey } from '../../domain/api-keys/issue-api-key.use-case';
import { revokeApiKey } from '../../domain/api-keys/revoke-api-key.use-case';
import { listDeadLetterQueues } from '../../domain/dead-letters/list-dead-letter-queues.use-case';
import { replayDeadLetters } from '../../domain/dead-letters/replay-dead-letters.use-case';
import { showDeadLetters } from '../../domain/dead-letters/show-dead-letters.use-case';
import type { GatewayDeps } from '../../domain/gateway-deps';
import { createTenant } from '../../domain/tenants/create-tenant.use-case';
import { getTenant } from '../../domain/tenants/get-tenant.use-case';
import { updateTenantPlan } from '../../domain/tenants/update-tenant-plan.use-case';
import type { Forwarder } from './forward';
import { keyIdOf, tenantIdOf } from './path-params';

export interface AdminDeps extends Pick<
  GatewayDeps,
  'tenants' | 'keys' | 'plans' | 'defaultPlan' | 'invalidation' | 'deadLetters'
> {
  adminToken: string;
  forward: Forwarder;
  targets: Record<InternalService, string>;
  bodyLimit: string;
}

function requireAdmin(token: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const presented = /^Bearer (\S+)$/i.exec(req.get('authorization')?.trim() ?? '')?.[1];
    if (presented === undefined || !safeEqual(presented, token)) throw new AppError('INVALID_API_KEY');
    next();
  };
}

/**
 * The operator API of CONTRACT.md under /admin/v1, guarded by ADMIN_TOKEN; `ownRoutes` add operator endpoints
 * kept beside their feature (dashboard users).
 */
export function adminRouter(deps: AdminDeps, ownRoutes: RouteDefinition[] = []): Router {
  const router = Router();
  router.use(requireAdmin(deps.adminToken));
  const json = jsonBody(deps.bodyLimit);
  // The tenant must exist before a channel account is connected to it; the messaging service owns the rest.
  const forwardForTenant = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const tenant = await getTenant(deps, tenantIdOf(req));
    deps.forward(deps.targets.messaging, tenant.tenant_id)(req, res, next);
  };
  defineRoutes(router, [
    ...ownRoutes,
    {
      method: 'POST',
      path: '/tenants',
      handlers: [
        ...json,
        async (req, res) => {
          const input = validate(createTenantSchema, req.body ?? {});
          res.status(201).json(ok(await createTenant(deps, input)));
        },
      ],
    },
    {
      method: 'GET',
      path: '/tenants/:tenantId',
      handlers: [async (req, res) => res.json(ok(await getTenant(deps, tenantIdOf(req))))],
    },
    {
      method: 'PATCH',
      path: '/tenants/:tenantId',
      handlers: [
        ...json,
        async (req, res) => {
          const tenantId = tenantIdOf(req);
          const { plan } = validate(updateTenantSchema, req.body ?? {});
          res.json(ok(await updateTenantPlan(deps, tenantId, plan)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/tenants/:tenantId/api-keys',
      handlers: [async (req, res) => res.status(201).json(ok(await issueApiKey(deps, tenantIdOf(req))))],
    },
    {
      method: 'DELETE',
      path: '/api-keys/:keyId',
      handlers: [async (req, res) => res.json(ok(await revokeApiKey(deps, keyIdOf(req))))],
    },
    {
      method: 'GET',
      path: '/dead-letters',
      handlers: [async (_req, res) => res.json(ok(await listDeadLetterQueues(deps)))],
    },
    {
      method: 'GET',
      path: '/dead-letters/:queue',
      handlers: [
        async (req, res) => {
          const { limit } = validate(showDeadLettersQuerySchema, req.query, { prefix: 'query' });
          res.json(ok(await showDeadLetters(deps, String(req.params.queue), limit)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/dead-letters/:queue/replay',
      handlers: [
        async (req, res) => {
          const { limit } = validate(replayDeadLettersQuerySchema, req.query, { prefix: 'query' });
          res.json(ok(await replayDeadLetters(deps, String(req.params.queue), limit)));
        },
      ],
    },
    ...FORWARDED_ADMIN_ROUTES.map((route) => ({
      method: route.method,
      path: route.path.replace('/admin/v1', ''),
      handlers: route.path.includes(':tenantId')
        ? [forwardForTenant]
        : [deps.forward(deps.targets[route.service], undefined)],
    })),
  ]);
  return router;
}
