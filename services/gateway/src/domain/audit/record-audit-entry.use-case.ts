import { ulid } from 'ulidx';
import type { GatewayDeps } from '../gateway-deps';
import type { Actor } from '../ports/audit-log.port';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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
export function recordAuditEntry(deps: Pick<GatewayDeps, 'auditLog'>, request: FinishedRequest, now = new Date()): void {
  if (!STATE_CHANGING.has(request.method)) return;
  deps.auditLog.record({ id: ulid(now.getTime()), createdAt: now, ...request });
}
