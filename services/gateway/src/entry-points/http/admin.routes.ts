import { Router, type NextFunction, type Request, type Response } from 'express';
import {
  createTenantSchema,
  FORWARDED_ADMIN_ROUTES,
  type InternalService,
  integerIdSchema,
  replayDeadLettersQuerySchema,
  showDeadLettersQuerySchema,
  updateTenantSchema,
  ok,
} from '@bm/contracts';
import {
  AppError,
  defineRoutes,
  jsonBody,
  safeEqual,
  validate,
  type DeadLetterQueues,
  type RouteDefinition,
} from '@bm/platform';
import type { ApiKeyRepository } from '../../data-access/api-key.repository';
import type { TenantRepository } from '../../data-access/tenant.repository';
import { issueApiKey, revokeApiKey } from '../../domain/manage-api-keys.use-case';
import {
  listDeadLetterQueues,
  replayDeadLetters,
  showDeadLetters,
} from '../../domain/manage-dead-letters.use-case';
import { createTenant, requireTenant, updateTenantPlan } from '../../domain/manage-tenants.use-case';
import type { Plan } from '../../domain/plans';
import type { AuthInvalidation } from '../../domain/gateway-ports';
import type { Forwarder } from './forward';
import { keyIdOf } from './tenant-api-keys.routes';

export interface AdminDeps {
  adminToken: string;
  tenants: TenantRepository;
  keys: ApiKeyRepository;
  plans: Map<string, Plan>;
  defaultPlan: string;
  invalidation: AuthInvalidation;
  forward: Forwarder;
  targets: Record<InternalService, string>;
  bodyLimit: string;
  deadLetters: DeadLetterQueues;
}

function requireAdmin(token: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const presented = /^Bearer (\S+)$/i.exec(req.get('authorization')?.trim() ?? '')?.[1];
    if (presented === undefined || !safeEqual(presented, token)) throw new AppError('INVALID_API_KEY');
    next();
  };
}

// gateway.tenants.id is a PostgreSQL integer: a larger id names no tenant (and would fail the query).
const tenantIdSchema = integerIdSchema.max(2_147_483_647);

const tenantIdOf = (req: Request): number => {
  const id = Number(req.params.tenantId);
  if (tenantIdSchema.validate(id).error) throw new AppError('TENANT_NOT_FOUND');
  return id;
};

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
    const tenant = await requireTenant(deps.tenants, tenantIdOf(req));
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
          res.status(201).json(ok(await createTenant(deps.tenants, deps.plans, input, deps.defaultPlan)));
        },
      ],
    },
    {
      method: 'GET',
      path: '/tenants/:tenantId',
      handlers: [async (req, res) => res.json(ok(await requireTenant(deps.tenants, tenantIdOf(req))))],
    },
    {
      method: 'PATCH',
      path: '/tenants/:tenantId',
      handlers: [
        ...json,
        async (req, res) => {
          const tenantId = tenantIdOf(req);
          const { plan } = validate(updateTenantSchema, req.body ?? {});
          res.json(ok(await updateTenantPlan(deps.tenants, deps.plans, deps.invalidation, tenantId, plan)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/tenants/:tenantId/api-keys',
      handlers: [
        async (req, res) =>
          res.status(201).json(ok(await issueApiKey(deps.tenants, deps.keys, tenantIdOf(req)))),
      ],
    },
    {
      method: 'DELETE',
      path: '/api-keys/:keyId',
      handlers: [
        async (req, res) => res.json(ok(await revokeApiKey(deps.keys, deps.invalidation, keyIdOf(req)))),
      ],
    },
    {
      method: 'GET',
      path: '/dead-letters',
      handlers: [async (_req, res) => res.json(ok(await listDeadLetterQueues(deps.deadLetters)))],
    },
    {
      method: 'GET',
      path: '/dead-letters/:queue',
      handlers: [
        async (req, res) => {
          const { limit } = validate(showDeadLettersQuerySchema, req.query, { prefix: 'query' });
          res.json(ok(await showDeadLetters(deps.deadLetters, String(req.params.queue), limit)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/dead-letters/:queue/replay',
      handlers: [
        async (req, res) => {
          const { limit } = validate(replayDeadLettersQuerySchema, req.query, { prefix: 'query' });
          res.json(ok(await replayDeadLetters(deps.deadLetters, String(req.params.queue), limit)));
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
