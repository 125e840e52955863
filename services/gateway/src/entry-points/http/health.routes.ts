import { Router } from 'express';
import { fail, ok } from '@bm/contracts';
import { defineRoutes, pingDatabase, serviceHealthRoutes, type RedisClient } from '@bm/platform';
import type { DataSource } from 'typeorm';
import { checkHealth, type HealthProbes } from '../../domain/check-health.use-case';

/** GET /api/health exactly as published: 200 healthy, or 503 SERVICE_DEGRADED with the report in details. */
export function healthRouter(dataSource: DataSource, redis: RedisClient, timeoutMs: number): Router {
  const router = Router();
  const probes: HealthProbes = { database: () => pingDatabase(dataSource), cache: () => redis.ping() };
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
