import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { REQUEST_ID_HEADER } from '@bm/contracts';
import { runWithContext } from '../context';
import { continueTrace, TRACEPARENT } from '../tracing/trace-context';

const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Takes the client's X-Request-Id when it is sane (no header injection), else makes one, and echoes it back;
 * continues the caller's W3C trace (`traceparent`) or starts one.
 */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const given = req.get(REQUEST_ID_HEADER);
  const requestId = given !== undefined && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  res.locals.requestId = requestId;
  const trace = continueTrace(req.headers[TRACEPARENT]);
  res.locals.trace = trace;
  runWithContext({ requestId, trace }, next);
}
