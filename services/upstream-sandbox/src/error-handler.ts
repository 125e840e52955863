import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@bm/platform';
import { GraphError, sendGraphError } from './graph-errors';

/** Unknown paths answer as the Graph API does for an unsupported request. */
export const unsupportedRequest: RequestHandler = (req, res) => {
  sendGraphError(
    res,
    new GraphError(
      100,
      400,
      'Unsupported request',
      `Unsupported ${req.method.toLowerCase()} request: ${req.path}`,
    ),
  );
};

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Graph-shaped answers for every error; an unexpected one is logged and answered as code 1. */
export function graphErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (err instanceof GraphError) {
      sendGraphError(res, err);
      return;
    }
    const parserError = err as BodyParserError;
    if (parserError.type === 'entity.parse.failed') {
      sendGraphError(res, GraphError.of(100, 'The request body could not be parsed as JSON.'));
      return;
    }
    if (parserError.type === 'entity.too.large') {
      sendGraphError(res, GraphError.of(100, 'The request body is too large.', 413));
      return;
    }
    logger.error('unexpected error', {
      path: req.path,
      error: err instanceof Error ? err.stack : String(err),
    });
    sendGraphError(res, GraphError.of(1));
  };
}
