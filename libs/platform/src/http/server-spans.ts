import type { NextFunction, Request, Response } from 'express';
import { exportSpan } from '../tracing/span-export';
import type { TraceContext } from '../tracing/trace-context';
import { routeOf } from './http-metrics';

/**
 * Exports each request served as a SERVER span of the trace `requestContext` continued (installed only when
 * span export is configured): `GET /api/v1/messages/:id` with the method, route, path and status.
 */
export function serverSpans(service: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const startMs = performance.timeOrigin + performance.now();
    res.once('close', () => {
      const trace = res.locals.trace as TraceContext | undefined;
      if (trace === undefined) return;
      const route = routeOf(req, res);
      const status = res.writableFinished ? res.statusCode : 0;
      exportSpan({
        service,
        trace,
        name: `${req.method} ${route}`,
        kind: 'server',
        startMs,
        endMs: performance.timeOrigin + performance.now(),
        attributes: {
          'http.request.method': req.method,
          'http.route': route,
          'url.path': req.path,
          'http.response.status_code': status,
        },
        error: status >= 500 || status === 0 ? (status === 0 ? 'aborted' : `HTTP ${status}`) : undefined,
      });
    });
    next();
  };
}
