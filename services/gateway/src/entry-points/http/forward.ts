import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { Pool, type Dispatcher } from 'undici';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { AppError, traceHeaders, UNAVAILABLE_RETRY_AFTER_SECONDS, type Logger } from '@bm/platform';

const HOP_BY_HOP = new Set([
  'connection',
  // Node has already answered `Expect: 100-continue` (curl sends it above 1 MB); undici refuses to forward it.
  'expect',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'authorization',
  INTERNAL_HEADERS.token,
  INTERNAL_HEADERS.tenantId,
]);

// Headers the gateway owns on the way back: its own request id and rate headers win over the service's.
const KEEP_OURS = new Set([
  ...HOP_BY_HOP,
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);
// Answers up to this size are sent in one write; larger ones stream through.
const BUFFER_LIMIT = 256 * 1024;

function copyHeaders(from: IncomingHttpHeaders, skip: Set<string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && !skip.has(name)) out[name] = value;
  }
  return out;
}

export interface Forwarder {
  (
    target: string,
    tenantId: number | undefined,
  ): (req: Request, res: Response, next: NextFunction) => Promise<void>;
  close(): Promise<void>;
}

/**
 * Streams a request to the owning internal service with the gateway's credential and the authenticated tenant,
 * and sends the answer back. Bodies are not parsed here: the service validates them.
 */
export function createForwarder(internalToken: string, timeoutMs: number, logger: Logger): Forwarder {
  const pools = new Map<string, Pool>();
  const poolFor = (origin: string): Pool => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: 256,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        keepAliveTimeout: 30_000,
      });
      pools.set(origin, pool);
    }
    return pool;
  };

  const forward =
    (target: string, fixedTenantId: number | undefined) =>
    async (req: Request, res: Response, next: NextFunction) => {
      const headers = copyHeaders(req.headers, HOP_BY_HOP);
      headers[INTERNAL_HEADERS.token] = internalToken;
      headers['x-request-id'] = String(res.getHeader('x-request-id'));
      // The service continues the gateway's span of the trace, not the client's.
      Object.assign(headers, traceHeaders());
      const tenantId = fixedTenantId ?? (res.locals.tenantId as number | undefined);
      if (tenantId !== undefined) headers[INTERNAL_HEADERS.tenantId] = String(tenantId);
      const hasBody =
        req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
      let answer: Dispatcher.ResponseData;
      try {
        answer = await poolFor(new URL(target).origin).request({
          path: req.originalUrl,
          method: req.method,
          headers,
          body: hasBody ? req : null,
        });
      } catch (err) {
        logger.warn('internal service unreachable', { target, error: (err as Error).message });
        if (!req.complete) res.setHeader('connection', 'close');
        next(new AppError('SERVICE_UNAVAILABLE'));
        return;
      }
      const outHeaders = copyHeaders(answer.headers, KEEP_OURS);
      // A service that is draining (or lost a dependency) says 503: the client is told when to come back.
      if (answer.statusCode === 503 && outHeaders['retry-after'] === undefined)
        outHeaders['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
      // The service answered before taking the whole body (415, 413, 401 come first): the rest of it will never
      // be read, and the next request on this connection would wait behind it forever. Close the connection
      // after this answer, as proxies do; the client opens a new one.
      if (!req.complete) outHeaders.connection = 'close';
      const length = Number(answer.headers['content-length'] ?? Infinity);
      if (length <= BUFFER_LIMIT) {
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, outHeaders).end(body);
        return;
      }
      res.writeHead(answer.statusCode, outHeaders);
      answer.body.on('error', () => res.destroy());
      answer.body.pipe(res);
    };
  return Object.assign(forward, {
    close: async () => {
      await Promise.all([...pools.values()].map((p) => p.close()));
    },
  });
}
