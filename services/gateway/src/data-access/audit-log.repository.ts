import { queryRows, type Logger } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { AuditEntry, AuditFilter, AuditLog } from '../domain/ports/audit-log.port';

interface AuditRow {
  id: string;
  tenant_id: number;
  actor_type: 'user' | 'api_key';
  actor_id: string;
  actor_email: string | null;
  operation_id: string;
  method: string;
  path: string;
  target: Record<string, string>;
  status: number;
  ip: string | null;
  request_id: string | null;
  created_at: Date;
}

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  tenantId: r.tenant_id,
  actor:
    r.actor_type === 'user'
      ? { type: 'user', userId: r.actor_id, email: r.actor_email ?? '' }
      : { type: 'api_key', keyId: r.actor_id },
  operationId: r.operation_id,
  method: r.method,
  path: r.path,
  target: r.target,
  status: r.status,
  ip: r.ip,
  requestId: r.request_id,
  createdAt: r.created_at,
});

// Entries are written in batches: one INSERT per this many, or per this long, whichever comes first.
const BATCH_SIZE = 500;
const BATCH_DELAY_MS = 50;
// Entries held while the database is slow or away, beyond which new ones are dropped (and the drop logged)
// rather than the gateway's memory growing without end.
const MAX_HELD = 50_000;

/**
 * The audit log (gateway schema). Entries are kept in memory for at most BATCH_DELAY_MS and written together in
 * one INSERT, so that logging every send costs the database one statement per batch, not one per request;
 * `stop()` writes what is pending (the runtime calls it once the HTTP server has closed).
 */
export class AuditLogRepository implements AuditLog {
  private pending: AuditEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Entries recorded and not yet written (pending or in a batch waiting its turn). */
  private held = 0;
  private dropped = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  record(entry: AuditEntry): void {
    if (this.held >= MAX_HELD) {
      this.dropped += 1;
      return;
    }
    this.held += 1;
    this.pending.push(entry);
    if (this.pending.length >= BATCH_SIZE) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), BATCH_DELAY_MS);
  }

  /** Writes what is pending; resolves once every batch so far is written. */
  async stop(): Promise<void> {
    this.flush();
    await this.writing;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    // One batch at a time, in order.
    this.writing = this.writing.then(async () => {
      await this.insert(batch);
      this.held -= batch.length;
      if (this.dropped > 0) {
        this.logger.error('audit log entries dropped while the database was behind', {
          entries: this.dropped,
        });
        this.dropped = 0;
      }
    });
  }

  private async insert(batch: AuditEntry[]): Promise<void> {
    try {
      await this.insertAll(batch);
    } catch (err) {
      // A value the database refuses (SQLSTATE class 22) must not cost the other entries: each is tried alone.
      if (batch.length > 1 && /^22/.test(String((err as { code?: unknown }).code))) {
        for (const entry of batch) await this.insert([entry]);
        return;
      }
      // The requests were answered long ago: the loss is logged (ids only, no bodies), not retried forever.
      this.logger.error('audit log entries lost', {
        error: (err as Error).message,
        entries: batch.length,
        request_ids: batch.map((e) => e.requestId).slice(0, 20),
      });
    }
  }

  private async insertAll(batch: AuditEntry[]): Promise<void> {
    const column = <T>(pick: (e: AuditEntry) => T): T[] => batch.map(pick);
    await this.dataSource.query(
      `INSERT INTO gateway.audit_log (id, tenant_id, actor_type, actor_id, actor_email, operation_id, method,
         path, target, status, ip, request_id, created_at)
       SELECT id, tenant_id, actor_type, actor_id, actor_email, operation_id, method, path, target::jsonb,
         status, ip, request_id, created_at
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
           $8::text[], $9::text[], $10::int[], $11::text[], $12::text[], $13::timestamptz[])
           AS t(id, tenant_id, actor_type, actor_id, actor_email, operation_id, method, path, target, status,
             ip, request_id, created_at)`,
      [
        column((e) => e.id),
        column((e) => e.tenantId),
        column((e) => e.actor.type),
        column((e) => (e.actor.type === 'user' ? e.actor.userId : e.actor.keyId)),
        column((e) => (e.actor.type === 'user' ? e.actor.email : null)),
        column((e) => e.operationId),
        column((e) => e.method),
        column((e) => e.path),
        column((e) => JSON.stringify(e.target)),
        column((e) => e.status),
        column((e) => e.ip),
        column((e) => e.requestId),
        column((e) => e.createdAt),
      ],
    );
  }

  async list(
    tenantId: number,
    filter: AuditFilter,
    page: { offset: number; limit: number },
  ): Promise<{ entries: AuditEntry[]; total: number }> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.actor !== undefined)
      add((n) => `(actor_id = ${n} OR actor_email = lower(${n}))`, filter.actor);
    if (filter.operationId !== undefined) add((n) => `operation_id = ${n}`, filter.operationId);
    if (filter.from !== undefined) add((n) => `created_at >= ${n}`, filter.from);
    if (filter.to !== undefined) add((n) => `created_at < ${n}`, filter.to);
    const clause = where.join(' AND ');
    const [rows, [count]] = await Promise.all([
      queryRows<AuditRow>(
        this.dataSource,
        `SELECT id, tenant_id, actor_type, actor_id, actor_email, operation_id, method, path, target, status, ip,
                request_id, created_at
           FROM gateway.audit_log WHERE ${clause} ORDER BY created_at DESC, id DESC
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, page.limit, page.offset],
      ),
      queryRows<{ total: number }>(
        this.dataSource,
        `SELECT count(*)::int AS total FROM gateway.audit_log WHERE ${clause}`,
        params,
      ),
    ]);
    return { entries: rows.map(toEntry), total: count.total };
  }
}
