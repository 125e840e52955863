import { paginationOf, type AuditLogEntryDto, type AuditLogListDto, type AuditLogQuery } from '@bm/contracts';
import type { GatewayDeps } from '../gateway-deps';
import type { AuditEntry } from '../ports/audit-log.port';

const entryDto = (e: AuditEntry): AuditLogEntryDto => ({
  id: e.id,
  actor:
    e.actor.type === 'user'
      ? { type: 'user', user_id: e.actor.userId, email: e.actor.email }
      : { type: 'api_key', key_id: e.actor.keyId },
  action: e.operationId,
  method: e.method,
  path: e.path,
  target: e.target,
  status: e.status,
  ip: e.ip,
  request_id: e.requestId,
  created_at: e.createdAt.toISOString(),
});

/** The tenant's audit log, newest first, filtered by actor, operation and time. */
export async function listAuditLog(
  deps: Pick<GatewayDeps, 'auditLog'>,
  tenantId: number,
  query: AuditLogQuery,
): Promise<AuditLogListDto> {
  const { entries, total } = await deps.auditLog.list(
    tenantId,
    { actor: query.actor, operationId: query.action, from: query.from, to: query.to },
    { offset: (query.page - 1) * query.per_page, limit: query.per_page },
  );
  return { entries: entries.map(entryDto), pagination: paginationOf(total, query.page, query.per_page) };
}
