import { Router } from 'express';
import { GATEWAY_ENDPOINTS } from '@bm/contracts';
import { AppError, defineRoutes, internalRoute, notFound, requireInternalCaller } from '@bm/platform';
import type { GatewayDeps } from '../../domain/gateway-deps';

/**
 * /internal/v1: what other services ask the gateway inside a client's request, behind the internal credential
 * (messaging: is a conversation's assignee one of the tenant's dashboard users).
 */
export function internalRouter(deps: Pick<GatewayDeps, 'users'>, internalToken: string): Router {
  const router = Router();
  router.use('/internal/v1', requireInternalCaller(internalToken));
  defineRoutes(router, [
    internalRoute(GATEWAY_ENDPOINTS.dashboardUser, async ({ params }) => {
      const user = await deps.users.findInTenant(Number(params.tenantId), params.userId);
      if (!user) throw new AppError('NOT_FOUND', 'No such dashboard user');
      return { user_id: user.id };
    }),
  ]);
  router.use('/internal/v1', notFound);
  return router;
}
