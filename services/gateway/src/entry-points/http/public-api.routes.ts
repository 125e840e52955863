import { Router } from 'express';
import { PUBLIC_ROUTES, UPSTREAM_WEBHOOK_ROUTES, type InternalService } from '@bm/contracts';
import { defineRoutes, notFound, type RouteDefinition } from '@bm/platform';
import { authenticate, type AuthDeps } from './authenticate.middleware';
import type { Forwarder } from './forward';

/**
 * /api/v1/**: authenticate and rate-limit, then forward by the route table of @bm/contracts (404/405 from it);
 * `ownRoutes` are the ones the gateway answers itself (the tenant's API keys).
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
    ...ownRoutes,
    ...PUBLIC_ROUTES.map((route) => ({
      method: route.method,
      path: route.path,
      handlers: [forward(targets[route.service], undefined)],
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
