import type { Request, Response } from 'express';
import { INBOX_EVENT_ID, INBOX_STREAM } from '@bm/contracts';
import { isTransientFailure, type Logger, type RouteDefinition } from '@bm/platform';
import type { GatewayDeps } from '../../domain/gateway-deps';
import type { InboxHub } from '../../domain/inbox/inbox-hub';
import type { InboxEntry } from '../../domain/ports/inbox-events.port';
import { sessionIdOf } from './session-cookie';

export interface InboxEventRouteDeps extends Pick<
  GatewayDeps,
  'authenticator' | 'invalidation' | 'sessions'
> {
  inboxHub: InboxHub;
  logger: Logger;
  /** The heartbeat's period (INBOX_HEARTBEAT_MS; INBOX_STREAM.heartbeatMs unless configured). */
  heartbeatMs: number;
}

// A browser that reads slower than its events come is let go (it reconnects with its Last-Event-ID) rather than
// held in the gateway's memory.
const MAX_BUFFERED_BYTES = 1 << 20;

const frameOf = (e: InboxEntry) => `id: ${e.id}\nevent: ${e.event}\ndata: ${e.data}\n\n`;

/** The `Last-Event-ID` a browser sent back, when it is one of the stream's ids. */
function lastEventIdOf(req: Request): string | undefined {
  const asked = req.get('last-event-id')?.trim();
  return asked && INBOX_EVENT_ID.test(asked) ? asked : undefined;
}

/**
 * GET /api/v1/conversations/events: the authenticated tenant's inbox as server-sent events, from this replica's
 * shared read of the tenant's event log (never the database). Only ever the credential's own tenant; the
 * credential is checked again at every heartbeat, so a revoked key or an ended session ends its stream.
 */
export function inboxEventRoutes(deps: InboxEventRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: INBOX_STREAM.path,
      handlers: [(req, res) => openStream(deps, req, res)],
    },
  ];
}

async function openStream(deps: InboxEventRouteDeps, req: Request, res: Response): Promise<void> {
  const tenantId = res.locals.tenantId as number;
  const socket = req.socket;
  let ended = false;
  // Set once subscribed; `end` may run before.
  const held: { unsubscribe?: () => void; heartbeat?: NodeJS.Timeout } = {};

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(held.heartbeat);
    held.unsubscribe?.();
    // The connection served this stream alone: it closes with it, so a stopping gateway is not held by it.
    res.end(() => socket.end());
  };
  const write = (chunk: string) => {
    if (ended) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      deps.logger.info('inbox stream dropped a slow reader', { tenant_id: tenantId });
      end();
      return;
    }
    res.write(chunk);
  };
  // 'drain' comes only after a write the socket could not take whole.
  const ready = () =>
    !res.writableNeedDrain || ended
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
  res.on('close', end);

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  // Proxies that buffer answers (nginx) pass this one through as it is written.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(`retry: ${INBOX_STREAM.retryMs}\n\n`);
  try {
    held.unsubscribe = await deps.inboxHub.open(tenantId, lastEventIdOf(req), {
      event: (entry) => write(frameOf(entry)),
      end,
      ready,
    });
  } catch (err) {
    // The event log is away (or the gateway stopping): the browser comes back after `retry`, to any replica.
    deps.logger.warn('inbox stream could not start', { tenant_id: tenantId, error: (err as Error).message });
    end();
    return;
  }
  if (ended) {
    held.unsubscribe();
    return;
  }
  const allowed = credentialCheck(deps, req, tenantId);
  held.heartbeat = setInterval(() => void beat(allowed, write, end), deps.heartbeatMs);
}

/**
 * Whether the stream's credential still stands, checked without the database: a session is looked up in Redis
 * (its idle deadline left alone), a key again only after a key or plan changed on some replica (the
 * invalidation channel's generation moved), which is when a revocation can have happened.
 */
function credentialCheck(deps: InboxEventRouteDeps, req: Request, tenantId: number): () => Promise<boolean> {
  const authorization = req.get('authorization');
  const sessionId = authorization === undefined ? sessionIdOf(req) : undefined;
  if (sessionId !== undefined) return () => deps.sessions.isLive(sessionId);
  let checked = deps.invalidation.generation();
  return async () => {
    const generation = deps.invalidation.generation();
    if (generation === undefined || generation === checked) return true;
    const credential = await deps.authenticator.authenticate(authorization);
    checked = generation;
    return credential.tenantId === tenantId;
  };
}

async function beat(
  allowed: () => Promise<boolean>,
  write: (chunk: string) => void,
  end: () => void,
): Promise<void> {
  try {
    if (!(await allowed())) return end();
  } catch (err) {
    // The cache or the database being away says nothing of the credential: the stream goes on.
    if (!isTransientFailure(err)) return end();
  }
  write(': ping\n\n');
}
