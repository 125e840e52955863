/** Who made a /api/v1 request: a dashboard user or an API key. */
export type Actor = { type: 'user'; userId: string; email: string } | { type: 'api_key'; keyId: string };

/** One state-changing request as the audit log keeps it: never its body, its query or a secret. */
export interface AuditEntry {
  id: string;
  tenantId: number;
  actor: Actor;
  operationId: string;
  method: string;
  path: string;
  /** The ids in the path, by the route's parameter names. */
  target: Record<string, string>;
  status: number;
  ip: string | null;
  requestId: string | null;
  createdAt: Date;
}

export interface AuditFilter {
  /** A user's id or email, or a key's id. */
  actor?: string;
  operationId?: string;
  from?: Date;
  to?: Date;
}

/** The tenants' audit logs. */
export interface AuditLog {
  /** Keeps the entry; written in the background (never fails or delays the request). */
  record(entry: AuditEntry): void;
  /** The tenant's entries matching the filter, newest first, and how many match in all. */
  list(
    tenantId: number,
    filter: AuditFilter,
    page: { offset: number; limit: number },
  ): Promise<{ entries: AuditEntry[]; total: number }>;
}
