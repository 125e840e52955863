import type { Router } from 'express';
import { checkWithin, isDraining } from '../health';
import { defineRoutes } from './routes';

/**
 * Kubernetes probes of an internal service: `/health/live` answers while the process serves HTTP,
 * `/health/ready` runs each named check (bounded by the timeout) and answers 503 when one fails, and from the
 * moment the process starts shutting down (`accepting: false`), before anything else stops.
 */
export function serviceHealthRoutes(
  router: Router,
  checks: Record<string, () => Promise<unknown>>,
  timeoutMs = 1_000,
): void {
  defineRoutes(router, [
    {
      method: 'GET',
      path: '/health/live',
      handlers: [(_req, res) => res.json({ success: true, data: { status: 'alive' } })],
    },
    {
      method: 'GET',
      path: '/health/ready',
      handlers: [
        async (_req, res) => {
          const names = Object.keys(checks);
          const results = await Promise.all(names.map((n) => checkWithin(checks[n], timeoutMs)));
          const report = {
            accepting: !isDraining(),
            ...Object.fromEntries(names.map((n, i) => [n, results[i]])),
          };
          const ready = !isDraining() && results.every(Boolean);
          const data = {
            status: ready ? 'ready' : 'degraded',
            checks: report,
            timestamp: new Date().toISOString(),
          };
          if (ready) res.json({ success: true, data });
          else
            res.status(503).json({
              success: false,
              error: { code: 'SERVICE_DEGRADED', message: 'Not ready', details: data },
            });
        },
      ],
    },
  ]);
}
