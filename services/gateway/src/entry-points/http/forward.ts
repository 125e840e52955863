import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { Pool, type Dispatcher } from 'undici';
import { INTERNAL_HEADERS } from '@bm/contracts';
import {
  AppError,
  currentContext,
  currentTraceparent,
  runWithContext,
  TRACEPARENT,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  type Logger,
} from '@bm/platform';

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
// Request bodies with a Content-Length up to this size are read whole and handed to undici as one buffer: it then
// writes the request in one go instead of piping a stream (listeners on the request and the socket, a writer and a
// destroy per request; about as much of the gateway's CPU for a send as its authentication). Larger or chunked
// bodies (a campaign's recipients) stream through.
const BODY_BUFFER_LIMIT = 64 * 1024;

type Headers = Record<string, string | string[]>;

function copyHeaders(from: IncomingHttpHeaders, skip: Set<string>): Headers {
  const out: Headers = {};
  // for...in, not Object.entries: no array per header on a path every request takes.
  for (const name in from) {
    const value = from[name];
    if (value !== undefined && !skip.has(name)) out[name] = value;
  }
  return out;
}

/**
 * Reads a small request body whole; `then` is not called when the client goes away before sending all of it
 * (there is no one left to answer).
 */
function readSmallBody(req: Request, then: (body: Buffer) => void, fail: (err: Error) => void): void {
  const chunks: Buffer[] = [];
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
  };
  const done = () => {
    req.off('data', onData).off('end', onEnd).off('error', onError).off('close', done);
  };
  const onEnd = () => {
    done();
    then(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  };
  const onError = (err: Error) => {
    done();
    fail(err);
  };
  req.on('data', onData).on('end', onEnd).on('error', onError).on('close', done);
}

const isJson = (contentType: string | string[] | undefined): boolean =>
  typeof contentType === 'string' && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);

/** Forwards a request; the answer (or the error) reaches the client through `res` and `next`. */
export type ForwardHandler = (req: Request, res: Response, next: NextFunction) => void;

export interface Forwarder {
  (target: string, tenantId: number | undefined): ForwardHandler;
  close(): Promise<void>;
}

/**
 * Hands the internal service's answer to the client as undici delivers it: small answers are gathered and sent
 * in one write, larger ones stream through with backpressure. Undici's dispatch handler, not its `request()`,
 * because `request()` wraps every answer in a readable stream and a promise the gateway does not need.
 */
class AnswerRelay implements Dispatcher.DispatchHandler {
  private started = false;
  private ended = false;
  /** The answer's status and headers while its body is gathered; undefined once streaming. */
  private held?: { statusCode: number; headers: Headers; chunks: Buffer[] };
  /** A hop's bare 502/504, answered as SERVICE_UNAVAILABLE once its body has been read. */
  private replaced = false;

  constructor(
    private readonly req: Request,
    private readonly res: Response,
    private readonly next: NextFunction,
    private readonly unreachable: (err: Error) => void,
    /** The request's logging context: undici calls back from its socket's, not the request's. */
    private readonly context = currentContext(),
  ) {}

  onRequestStart(): void {
    // Nothing to do when the request goes out; undici calls this on every handler.
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // A 502 or 504 that is not our envelope came from a hop between us and the service (a balancer whose
    // replica died mid-request): the client gets the documented 503 SERVICE_UNAVAILABLE with Retry-After.
    if ((statusCode === 502 || statusCode === 504) && !isJson(headers['content-type'])) {
      this.unreachable(new Error(`a hop to the service answered ${statusCode}`));
      this.replaced = true;
      return;
    }
    this.started = true;
    const out = copyHeaders(headers, KEEP_OURS);
    // A service that is draining (or lost a dependency) says 503: the client is told when to come back.
    if (statusCode === 503 && out['retry-after'] === undefined)
      out['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
    // The service answered before taking the whole body (415, 413, 401 come first): the rest of it will never
    // be read, and the next request on this connection would wait behind it forever. Close the connection
    // after this answer, as proxies do; the client opens a new one.
    if (!this.req.complete) out.connection = 'close';
    const length = Number(headers['content-length'] ?? Infinity);
    if (length <= BUFFER_LIMIT) {
      this.held = { statusCode, headers: out, chunks: [] };
      return;
    }
    this.res.writeHead(statusCode, out);
    // A client gone mid-answer stops the upstream body instead of leaving it paused until bodyTimeout.
    this.res.once('close', () => {
      if (!this.ended) controller.abort(new Error('client closed the connection'));
    });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.replaced) return;
    if (this.held) {
      this.held.chunks.push(chunk);
      return;
    }
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.ended = true;
    if (this.replaced) {
      if (!this.req.complete) this.res.setHeader('connection', 'close');
      runWithContext(this.context, () => this.next(new AppError('SERVICE_UNAVAILABLE')));
      return;
    }
    const held = this.held;
    if (!held) {
      this.res.end();
      return;
    }
    const body = held.chunks.length === 1 ? held.chunks[0] : Buffer.concat(held.chunks);
    this.res.writeHead(held.statusCode, held.headers).end(body);
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, err: Error): void {
    this.ended = true;
    runWithContext(this.context, () => this.fail(err));
  }

  private fail(err: Error): void {
    if (!this.started) {
      this.unreachable(err);
      if (!this.req.complete) this.res.setHeader('connection', 'close');
      this.next(new AppError('SERVICE_UNAVAILABLE'));
    } else if (this.held) {
      // Nothing sent yet: the error handler answers.
      this.next(err);
    } else {
      this.res.destroy();
    }
  }
}

/**
 * Streams a request to the owning internal service with the gateway's credential and the authenticated tenant,
 * and sends the answer back. Bodies are not parsed here: the service validates them.
 */
export function createForwarder(internalToken: string, timeoutMs: number, logger: Logger): Forwarder {
  const pools = new Map<string, Pool>();
  const poolFor = (target: string): Pool => {
    let pool = pools.get(target);
    if (!pool) {
      const origin = new URL(target).origin;
      pool =
        pools.get(origin) ??
        new Pool(origin, {
          connections: 256,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          keepAliveTimeout: 30_000,
        });
      pools.set(origin, pool);
      pools.set(target, pool);
    }
    return pool;
  };

  const forward =
    (target: string, fixedTenantId: number | undefined): ForwardHandler =>
    (req, res, next) => {
      const headers = copyHeaders(req.headers, HOP_BY_HOP);
      headers[INTERNAL_HEADERS.token] = internalToken;
      headers['x-request-id'] = String(res.getHeader('x-request-id'));
      // The service continues the gateway's span of the trace, not the client's.
      const traceparent = currentTraceparent();
      if (traceparent !== undefined) headers[TRACEPARENT] = traceparent;
      const tenantId = fixedTenantId ?? (res.locals.tenantId as number | undefined);
      if (tenantId !== undefined) headers[INTERNAL_HEADERS.tenantId] = String(tenantId);
      const length = req.headers['content-length'];
      const chunked = req.headers['transfer-encoding'] !== undefined;
      const unreachable = (err: Error) =>
        logger.warn('internal service unreachable', { target, error: err.message });
      // Made now: it keeps the request's logging context, which the body's events do not run in.
      const relay = new AnswerRelay(req, res, next, unreachable);
      const dispatch = (body: Buffer | Request | null) =>
        poolFor(target).dispatch({ path: req.originalUrl, method: req.method, headers, body }, relay);
      if (length !== undefined && !chunked && Number(length) <= BODY_BUFFER_LIMIT && !req.readableEnded) {
        const context = currentContext();
        readSmallBody(req, dispatch, (err) => runWithContext(context, () => next(err)));
      } else {
        dispatch(length !== undefined || chunked ? req : null);
      }
    };
  return Object.assign(forward, {
    close: async () => {
      await Promise.all([...new Set(pools.values())].map((p) => p.close()));
    },
  });
}
