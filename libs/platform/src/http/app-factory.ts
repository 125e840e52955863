import express, {
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import helmet from 'helmet';
import { AppError } from '../errors';
import { serviceNameOf, type Logger } from '../logger';
import { serviceMetrics, type ServiceMetrics } from '../metrics/service-metrics';
import { errorHandler } from './error-handler';
import { httpMetrics, metricsRoute } from './http-metrics';
import { requestContext } from './request-context';
import { serverSpans } from './server-spans';
import { spanExportConfigured } from '../tracing/span-export';
import { notFound } from './routes';

export interface HttpAppOptions {
  logger: Logger;
  /** Largest JSON body accepted, e.g. '1mb'; larger answers 413. */
  bodyLimit?: string;
  /** Parses JSON bodies (default true); off for apps that forward raw bodies or read them themselves. */
  parseJson?: boolean;
  /** Paths whose bodies their routes read themselves (a multipart upload): no JSON check or parsing there. */
  rawBodyPaths?: string[];
  /**
   * Security headers (helmet); on by default. Internal services behind the gateway may turn them off: the
   * gateway sets them on every public answer, and they would only be sent twice.
   */
  securityHeaders?: boolean;
  /**
   * The registry `GET /metrics` serves and the HTTP metrics go to; by default `serviceMetrics(<the logger's
   * service name>)`, the same one the service's other modules get from `serviceMetrics`.
   */
  metrics?: ServiceMetrics;
  /** Adds the app's routes between the common front and the common back. */
  routes: (app: Express) => void;
}

declare module 'http' {
  interface IncomingMessage {
    /** The exact bytes of the body, kept for signature checks. */
    rawBody?: Buffer;
  }
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** 415 for a body that is not JSON; bodiless requests pass whatever their content type. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (
    METHODS_WITH_BODY.has(req.method) &&
    hasBody(req) &&
    !req.is(['application/json', 'application/*+json'])
  ) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE'));
    return;
  }
  next();
}

/** 415 for non-JSON bodies, then JSON parsing with the raw bytes kept on `req.rawBody`. */
export function jsonBody(limit = '1mb'): RequestHandler[] {
  return [
    requireJsonBody,
    express.json({
      limit,
      // Any JSON text parses (null, "x", 1 too): a body that is JSON but not the object an endpoint wants is the
      // endpoint's 422 VALIDATION_ERROR; 400 INVALID_JSON is kept for what does not parse (CONTRACT.md).
      strict: false,
      type: ['application/json', 'application/*+json'],
      verify: (req, _res, buf) => {
        req.rawBody = buf;
      },
    }),
  ];
}

/** `jsonBody`, but not on the paths whose routes read their bodies themselves. */
function jsonBodyExcept(limit: string | undefined, rawPaths: string[]): RequestHandler[] {
  const json = jsonBody(limit);
  if (rawPaths.length === 0) return json;
  const [check, parse] = json;
  const raw = new Set(rawPaths);
  return [
    (req, res, next) => {
      if (raw.has(req.path)) next();
      else void check(req, res, (err?: unknown) => (err ? next(err) : void parse(req, res, next)));
    },
  ];
}

/**
 * An Express 5 app with HTTP metrics and `GET /metrics` (before any authentication: the platform keeps it off the
 * public Ingress), helmet, request and trace ids, JSON parsing with raw-body capture, 404/405 and the error handler.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const metrics = options.metrics ?? serviceMetrics(serviceNameOf(options.logger));
  app.use(httpMetrics(metrics));
  metricsRoute(app.router, metrics);
  app.use(requestContext);
  if (spanExportConfigured()) app.use(serverSpans(serviceNameOf(options.logger)));
  if (options.securityHeaders !== false) app.use(helmet());
  if (options.parseJson !== false) app.use(jsonBodyExcept(options.bodyLimit, options.rawBodyPaths ?? []));
  options.routes(app);
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}
