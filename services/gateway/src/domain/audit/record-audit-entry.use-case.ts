import { newUlid } from '@bm/platform';
import type { GatewayDeps } from '../gateway-deps';
import type { Actor } from '../ports/audit-log.port';
import { changesState } from '../state-changing';

const MAX_TEXT = 1024;

/**
 * Text PostgreSQL can store, whatever the client sent: a path's decoded ids may hold NUL or a lone surrogate,
 * which text and jsonb refuse (one such entry must not cost the others of its batch), and are cut to a length.
 */
const storable = (text: string): string =>
  // A lone surrogate becomes U+FFFD, as String.prototype.toWellFormed does (ES2024, past this project's lib).
  text
    .slice(0, MAX_TEXT)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\0/g, '\uFFFD');

/** What the entry point knows of a finished /api/v1 request. */
export interface FinishedRequest {
  tenantId: number;
  actor: Actor;
  operationId: string;
  method: string;
  path: string;
  target: Record<string, string>;
  status: number;
  ip: string | null;
  requestId: string | null;
}

/**
 * Keeps a state-changing request in its tenant's audit log once it is answered, whatever the answer (a 403 or
 * a 422 too): who, which operation, on which ids, with what status, from where. Reads are not kept.
 */
export function recordAuditEntry(
  deps: Pick<GatewayDeps, 'auditLog'>,
  request: FinishedRequest,
  now = new Date(),
): void {
  if (!changesState(request.method)) return;
  const target = Object.fromEntries(
    Object.entries(request.target).map(([name, id]) => [storable(name), storable(id)]),
  );
  deps.auditLog.record({
    ...request,
    // From the crypto pool: ulidx's default draws a crypto byte per character, on every state-changing request.
    id: newUlid(now.getTime()),
    createdAt: now,
    path: storable(request.path),
    target,
    ip: request.ip === null ? null : storable(request.ip),
    requestId: request.requestId === null ? null : storable(request.requestId),
  });
}
