import { Router } from 'express';
import { GATEWAY_ROUTES, PUBLIC_ROUTES, UPSTREAM_WEBHOOK_ROUTES, type InternalService } from '@bm/contracts';
import { defineRoutes, notFound, type RouteDefinition } from '@bm/platform';
import { authenticate, type AuthDeps } from './authenticate.middleware';
import { authorize } from './authorize.middleware';
import type { Forwarder } from './forward';

/** The operationId the document gives a route the gateway answers itself; a route it lacks is a bug. */
function operationIdOf(route: RouteDefinition): string {
  const found = GATEWAY_ROUTES.find((r) => r.method === route.method && r.path === route.path);
  if (!found) throw new Error(`${route.method} ${route.path} is not in GATEWAY_ROUTES`);
  return found.operationId;
}

/**
 * /api/v1/**: authenticate and rate-limit, then check the role for the operation, then forward by the route
 * table of @bm/contracts (404/405 from it); `ownRoutes` are the ones the gateway answers itself (the tenant's
 * API keys, team and audit log).
 */
export function publicApiRouter(
  auth: AuthDeps,
  forward: Forwarder,
  targets: Record<InternalService, string>,
  ownRoutes: RouteDefinition[] = [],
): Router {
  const router = Router();
  router.use('/api/v1', authenticate(auth));
  defineRoutes(router, [
    ...ownRoutes.map((route) => ({
      ...route,
      handlers: [authorize(operationIdOf(route)), ...route.handlers],
    })),
    ...PUBLIC_ROUTES.map((route) => ({
      method: route.method,
      path: route.path,
      handlers: [authorize(route.operationId), forward(targets[route.service], undefined)],
    })),
  ]);
  router.use('/api/v1', notFound);
  return router;
}

/**
 * /api/webhooks/channel: the upstream network's calls pass without an API key, bytes untouched, to
 * webhook-ingress, which checks the signature over the raw body.
 */
export function upstreamWebhookRouter(forward: Forwarder, targets: Record<InternalService, string>): Router {
  const router = Router();
  defineRoutes(
    router,
    UPSTREAM_WEBHOOK_ROUTES.map((route) => ({
      method: route.method,
      path: route.path,
      handlers: [forward(targets[route.service], undefined)],
    })),
  );
  return router;
}
