import type { NextFunction, Request, Response, Router } from 'express';
import type { ServiceMetrics } from '../metrics/service-metrics';

/** The label of requests no route matched (404s, and failures before routing such as a bad body or API key). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route template set by defineRoutes, else the one Express matched, else UNMATCHED_ROUTE. */
export function routeOf(req: Request, res: Response): string {
  if (typeof res.locals.route === 'string') return res.locals.route;
  const route = req.route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : UNMATCHED_ROUTE;
}

/**
 * Counts requests and times them by method, route template and status. The route is Express's path pattern
 * (`/api/v1/messages/:id`), never the URL, so the number of series stays bounded whatever clients ask for.
 */
export function httpMetrics(metrics: ServiceMetrics) {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = metrics.counter({
    name: 'bm_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames,
  });
  const duration = metrics.histogram({
    name: 'bm_http_request_duration_seconds',
    help: 'Time from the request to the last byte of the answer, by method, route template and status code',
    labelNames,
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const labels = {
        method: req.method,
        route: routeOf(req, res),
        // An answer cut off by the client never got a status of its own.
        status: res.writableFinished ? res.statusCode : 'aborted',
      };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/** `GET /metrics`: the service's metrics in the Prometheus text format. */
export function metricsRoute(router: Router, metrics: ServiceMetrics): void {
  router.get('/metrics', async (_req: Request, res: Response) => {
    const { contentType, body } = await metrics.expose();
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
  });
}
