import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type Joi from 'joi';
import { ok, type HttpMethod } from '@bm/contracts';
import { AppError, validate } from '../errors';
import { tenantOf } from './internal-auth';

export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  handlers: RequestHandler[];
}

/**
 * Registers routes grouped by path and answers 405 METHOD_NOT_ALLOWED (with `Allow`) for a known path
 * asked with another method, so only truly unknown paths fall through to 404. The matched template is kept on
 * `res.locals.route` for the HTTP metrics.
 */
export function defineRoutes(router: Router, routes: RouteDefinition[]): void {
  const byPath = new Map<string, RouteDefinition[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const [path, defs] of byPath) {
    const route = router.route(path);
    // Named here, where the mount path is known: an error handled further out sees req.baseUrl reset.
    route.all((req: Request, res: Response, next: NextFunction) => {
      res.locals.route = `${req.baseUrl}${path}`;
      next();
    });
    for (const def of defs) {
      const method = def.method.toLowerCase() as Lowercase<HttpMethod>;
      route[method](...def.handlers);
    }
    route.all(methodNotAllowed(defs.map((d) => d.method)));
  }
}

/** A route for the authenticated tenant: reads its input, and answers what `use` returns in the envelope. */
function tenantRoute<I>(
  method: HttpMethod,
  path: string,
  status: number,
  input: (req: Request) => I,
  use: (tenantId: number, input: I) => Promise<unknown>,
): RouteDefinition {
  return {
    method,
    path,
    handlers: [
      async (req: Request, res: Response) => {
        const given = input(req);
        res.status(status).json(ok(await use(tenantOf(res), given)));
      },
    ],
  };
}

/** GET `path`, the tenant's list: validates the query with `querySchema`; answers the page `list` returns. */
export function tenantListRoute<Q>(
  path: string,
  querySchema: Joi.Schema<Q>,
  list: (tenantId: number, query: Q) => Promise<unknown>,
): RouteDefinition {
  return tenantRoute('GET', path, 200, (req) => validate(querySchema, req.query), list);
}

/** POST `path` for the tenant: validates the body with `bodySchema`; answers 201, what `create` made. */
export function tenantCreateRoute<B>(
  path: string,
  bodySchema: Joi.Schema<B>,
  create: (tenantId: number, body: B) => Promise<unknown>,
): RouteDefinition {
  return tenantRoute('POST', path, 201, (req) => validate(bodySchema, req.body ?? {}), create);
}

/** A handler that answers 405 listing the allowed methods. */
export function methodNotAllowed(methods: readonly string[]): RequestHandler {
  const allow = [...new Set(methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))].join(', ');
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Allow', allow);
    next(new AppError('METHOD_NOT_ALLOWED'));
  };
}

/** The final fallback: 404 NOT_FOUND in the envelope. */
export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(new AppError('NOT_FOUND'));
}
