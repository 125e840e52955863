import { Agent, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { AppError, type Logger } from '@bm/platform';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'host',
  'authorization',
  INTERNAL_HEADERS.token,
  INTERNAL_HEADERS.tenantId,
]);

// Headers the gateway owns on the way back: its own request id and rate headers win over the service's.
const KEEP_OURS = new Set(['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

function copyHeaders(from: IncomingHttpHeaders, skip: Set<string>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && !skip.has(name)) out[name] = value;
  }
  return out;
}

export interface Forwarder {
  (target: string, tenantId: number | undefined): (req: Request, res: Response, next: NextFunction) => void;
  close(): void;
}

/**
 * Streams a request to the owning internal service with the gateway's credential and the authenticated tenant,
 * and streams the answer back. Bodies are not parsed here: the service validates them.
 */
export function createForwarder(internalToken: string, timeoutMs: number, logger: Logger): Forwarder {
  const agent = new Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64 });
  const forward = (target: string, fixedTenantId: number | undefined) => (req: Request, res: Response, next: NextFunction) => {
    const url = new URL(req.originalUrl, target);
    const headers = copyHeaders(req.headers, HOP_BY_HOP);
    headers[INTERNAL_HEADERS.token] = internalToken;
    headers['x-request-id'] = res.getHeader('x-request-id');
    const tenantId = fixedTenantId ?? (res.locals.tenantId as number | undefined);
    if (tenantId !== undefined) headers[INTERNAL_HEADERS.tenantId] = String(tenantId);

    const upstream = request(url, { method: req.method, headers, agent, timeout: timeoutMs }, (answer) => {
      const outHeaders = copyHeaders(answer.headers, new Set([...HOP_BY_HOP, ...KEEP_OURS]));
      res.writeHead(answer.statusCode ?? 502, outHeaders);
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('internal call timed out')));
    upstream.on('error', (err) => {
      logger.warn('internal service unreachable', { target: url.origin, error: err.message });
      if (res.headersSent) res.destroy();
      else next(new AppError('SERVICE_UNAVAILABLE'));
    });
    req.on('aborted', () => upstream.destroy());
    req.pipe(upstream);
  };
  return Object.assign(forward, { close: () => agent.destroy() });
}
