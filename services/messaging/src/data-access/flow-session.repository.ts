import type { FlowSessionStatus } from '@bm/contracts';
import { queryRows } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { FlowSession, FlowSessionStore } from '../domain/ports/flow-session.port';

interface Row {
  id: string;
  tenant_id: number;
  flow_id: string;
  flow_version: number;
  channel_account_id: string;
  customer_phone: string;
  status: FlowSessionStatus;
  current_step: string | null;
  variables: Record<string, string>;
  started_at: Date;
  expires_at: Date | null;
  ended_at: Date | null;
}

const toSession = (r: Row): FlowSession => ({
  id: r.id,
  tenantId: r.tenant_id,
  flowId: r.flow_id,
  flowVersion: r.flow_version,
  channelAccountId: r.channel_account_id,
  phone: r.customer_phone,
  status: r.status,
  currentStep: r.current_step,
  variables: r.variables,
  startedAt: r.started_at,
  expiresAt: r.expires_at,
  endedAt: r.ended_at,
});

/** Flow sessions; at most one active per customer of a number (a partial unique index). */
export class FlowSessionRepository implements FlowSessionStore {
  constructor(private readonly dataSource: DataSource) {}

  /** The customer's running session, locked for the caller's transaction. */
  async lockActive(
    tx: EntityManager,
    channelAccountId: string,
    phone: string,
  ): Promise<FlowSession | undefined> {
    const rows = await queryRows<Row>(
      tx,
      `SELECT * FROM messaging.flow_sessions
        WHERE channel_account_id = $1 AND customer_phone = $2 AND status = 'active' FOR UPDATE`,
      [channelAccountId, phone],
    );
    return rows[0] ? toSession(rows[0]) : undefined;
  }

  /** Serialises the messages of one customer of one number until the transaction ends (one session at a time). */
  async lockCustomer(tx: EntityManager, channelAccountId: string, phone: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`flow:${channelAccountId}:${phone}`]);
  }

  async insert(tx: EntityManager, s: FlowSession): Promise<void> {
    await tx.query(
      `INSERT INTO messaging.flow_sessions (id, tenant_id, flow_id, flow_version, channel_account_id, customer_phone,
         status, current_step, variables, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        s.id,
        s.tenantId,
        s.flowId,
        s.flowVersion,
        s.channelAccountId,
        s.phone,
        s.status,
        s.currentStep,
        JSON.stringify(s.variables),
        s.startedAt,
      ],
    );
  }

  /** Writes where the session stands: its status, step, variables and times. */
  async update(tx: EntityManager, s: FlowSession): Promise<void> {
    await tx.query(
      `UPDATE messaging.flow_sessions
          SET status = $2, current_step = $3, variables = $4, expires_at = $5, ended_at = $6
        WHERE id = $1`,
      [s.id, s.status, s.currentStep, JSON.stringify(s.variables), s.expiresAt, s.endedAt],
    );
  }

  /** Ends up to `limit` waiting sessions past their time (timed_out); replicas skip each other's rows. */
  async expireDue(tx: EntityManager, limit: number): Promise<FlowSession[]> {
    const rows = await queryRows<Row>(
      tx,
      `UPDATE messaging.flow_sessions s
          SET status = 'timed_out', current_step = NULL, expires_at = NULL, ended_at = now()
        WHERE s.id IN (SELECT id FROM messaging.flow_sessions
                        WHERE status = 'active' AND expires_at <= now()
                        ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING s.*`,
      [limit],
    );
    return rows.map(toSession);
  }

  async list(
    flowId: string,
    tenantId: number,
    status: FlowSessionStatus | undefined,
    page: number,
    perPage: number,
  ): Promise<{ items: FlowSession[]; total: number }> {
    const params: unknown[] = [flowId, tenantId];
    const clause = `flow_id = $1 AND tenant_id = $2${status ? ` AND status = $${params.push(status)}` : ''}`;
    const [rows, [{ total }]] = await Promise.all([
      queryRows<Row>(
        this.dataSource,
        `SELECT * FROM messaging.flow_sessions WHERE ${clause}
          ORDER BY started_at DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
        params,
      ),
      queryRows<{ total: number }>(
        this.dataSource,
        `SELECT count(*)::int AS total FROM messaging.flow_sessions WHERE ${clause}`,
        params,
      ),
    ]);
    return { items: rows.map(toSession), total };
  }
}
