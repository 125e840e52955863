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

/**
 * GET `path` for the authenticated tenant: validates the query with `querySchema` and answers what `list` returns
 * (a page) in the envelope; the shape of every list endpoint of the tenant API.
 */
export function tenantListRoute<Q>(
  path: string,
  querySchema: Joi.Schema<Q>,
  list: (tenantId: number, query: Q) => Promise<unknown>,
): RouteDefinition {
  return {
    method: 'GET',
    path,
    handlers: [
      async (req: Request, res: Response) => {
        const query = validate(querySchema, req.query);
        res.json(ok(await list(tenantOf(res), query)));
      },
    ],
  };
}

/**
 * POST `path` for the authenticated tenant: validates the body with `bodySchema` and answers 201 with what
 * `create` returns in the envelope.
 */
export function tenantCreateRoute<B>(
  path: string,
  bodySchema: Joi.Schema<B>,
  create: (tenantId: number, body: B) => Promise<unknown>,
): RouteDefinition {
  return {
    method: 'POST',
    path,
    handlers: [
      async (req: Request, res: Response) => {
        const body = validate(bodySchema, req.body ?? {});
        res.status(201).json(ok(await create(tenantOf(res), body)));
      },
    ],
  };
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
