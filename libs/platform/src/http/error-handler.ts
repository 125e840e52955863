import type { ErrorRequestHandler } from 'express';
import { fail } from '@bm/contracts';
import { AppError } from '../errors';
import type { Logger } from '../logger';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  errno?: unknown;
}

// Connection-level failures of PostgreSQL (or another dependency): the request could not be done, not half-done.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error/i;

/** True when the error says a dependency is unreachable rather than that the request is wrong. */
export function isDependencyDown(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.driverError?.code;
  return (
    (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) ||
    (typeof e?.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message))
  );
}

/** Maps body-parser and router failures to documented codes; anything else unknown becomes a 500. */
function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (isDependencyDown(err)) return new AppError('SERVICE_UNAVAILABLE');
  // The router could not percent-decode a path parameter (`/messages/%E0%A4%A`): such a path names nothing.
  if (err instanceof URIError) return new AppError('NOT_FOUND');
  const { type = '', status, errno } = (err as BodyParserError | undefined) ?? {};
  // A compressed body (gzip, deflate, br) that does not inflate: zlib's error, passed on by body-parser as a 400.
  if (status === 400 && typeof errno === 'number') {
    return new AppError('INVALID_JSON', 'The request body could not be read');
  }
  switch (type) {
    case 'entity.parse.failed':
      return new AppError('INVALID_JSON');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('INVALID_JSON', 'The request body could not be read');
    default:
      return undefined;
  }
}

/**
 * `Retry-After` of a 503 SERVICE_UNAVAILABLE: a dependency (or, at the gateway, the service it forwards to) is
 * down or draining; a restarted pod is ready again within seconds.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The one error handler: every failure leaves as the envelope, a 5xx never shows its cause. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const appError = toAppError(err);
    if (res.headersSent) {
      logger.error('error after headers were sent', { err, path: req.path });
      res.destroy();
      return;
    }
    if (appError) {
      if (appError.status >= 500) logger.error(appError.message, { code: appError.code, path: req.path });
      if (appError.code === 'SERVICE_UNAVAILABLE')
        res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      res.status(appError.status).json(fail(appError.code, appError.message, appError.details));
      return;
    }
    logger.error('unhandled error', { err, method: req.method, path: req.path });
    res.status(500).json(fail('INTERNAL_ERROR', 'An unexpected error occurred'));
  };
}
