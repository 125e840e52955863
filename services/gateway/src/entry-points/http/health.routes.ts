import { Router } from 'express';
import { fail, ok } from '@bm/contracts';
import { defineRoutes, serviceHealthRoutes } from '@bm/platform';
import type { GatewayDeps } from '../../domain/gateway-deps';
import { checkHealth } from '../../domain/health/check-health.use-case';

/** GET /api/health exactly as published: 200 healthy, or 503 SERVICE_DEGRADED with the report in details. */
export function healthRouter(deps: Pick<GatewayDeps, 'health'>, timeoutMs: number): Router {
  const router = Router();
  const probes = deps.health;
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/api/health',
      handlers: [
        async (_req, res) => {
          const report = await checkHealth(probes, timeoutMs);
          res.setHeader('Cache-Control', 'no-store');
          if (report.status === 'healthy') {
            res.json(ok(report));
          } else {
            const failed = Object.entries(report.checks)
              .filter(([, passed]) => !passed)
              .map(([name]) => name);
            res
              .status(503)
              .json(fail('SERVICE_DEGRADED', `Health check failed: ${failed.join(', ')}`, { ...report }));
          }
        },
      ],
    },
  ]);
  // Probes: ready while the database answers (Redis down only meters nothing, so it does not take pods out).
  serviceHealthRoutes(router, { database: () => probes.database() }, timeoutMs);
  return router;
}
