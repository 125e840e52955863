import type { ErrorRequestHandler } from 'express';
import { fail } from '@bm/contracts';
import { AppError } from '../errors';
import type { Logger } from '../logger';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Maps body-parser failures to documented codes; anything else unknown becomes a 500. */
function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const type = (err as BodyParserError | undefined)?.type ?? '';
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
      res.status(appError.status).json(fail(appError.code, appError.message, appError.details));
      return;
    }
    logger.error('unhandled error', { err, method: req.method, path: req.path });
    res.status(500).json(fail('INTERNAL_ERROR', 'An unexpected error occurred'));
  };
}
