import type { FlowDefinition, FlowStatus } from '@bm/contracts';
import { queryRows } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { Flow, FlowStore } from '../domain/ports/flow.port';

type Db = DataSource | EntityManager;

interface Row {
  id: string;
  tenant_id: number;
  channel_account_id: string;
  name: string;
  status: FlowStatus;
  version: number;
  definition: FlowDefinition;
  created_at: Date;
  updated_at: Date;
}

const toFlow = (r: Row): Flow => ({
  id: r.id,
  tenantId: r.tenant_id,
  channelAccountId: r.channel_account_id,
  name: r.name,
  status: r.status,
  version: r.version,
  definition: r.definition,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SELECT = `SELECT f.*, v.definition FROM messaging.flows f
  JOIN messaging.flow_versions v ON v.flow_id = f.id AND v.version = f.version`;

/** Flows and their versions: every save adds a version, the flow row points at the current one. */
export class FlowRepository implements FlowStore {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    tx: EntityManager,
    flow: {
      id: string;
      tenantId: number;
      channelAccountId: string;
      name: string;
      definition: FlowDefinition;
    },
  ): Promise<Flow> {
    await tx.query(
      `INSERT INTO messaging.flows (id, tenant_id, channel_account_id, name, version) VALUES ($1, $2, $3, $4, 1)`,
      [flow.id, flow.tenantId, flow.channelAccountId, flow.name],
    );
    await tx.query('INSERT INTO messaging.flow_versions (flow_id, version, definition) VALUES ($1, 1, $2)', [
      flow.id,
      JSON.stringify(flow.definition),
    ]);
    return (await this.find(flow.id, flow.tenantId, tx))!;
  }

  /** A new version becomes current; sessions keep the version they started on. Undefined for an unknown flow. */
  async saveVersion(
    tx: EntityManager,
    id: string,
    tenantId: number,
    change: { channelAccountId: string; name: string; definition: FlowDefinition },
  ): Promise<Flow | undefined> {
    const rows = await queryRows<{ version: number }>(
      tx,
      `UPDATE messaging.flows SET version = version + 1, name = $3, channel_account_id = $4, updated_at = now()
        WHERE id = $1 AND tenant_id = $2 RETURNING version`,
      [id, tenantId, change.name, change.channelAccountId],
    );
    if (rows.length === 0) return undefined;
    await tx.query('INSERT INTO messaging.flow_versions (flow_id, version, definition) VALUES ($1, $2, $3)', [
      id,
      rows[0].version,
      JSON.stringify(change.definition),
    ]);
    return this.find(id, tenantId, tx);
  }

  async setStatus(id: string, tenantId: number, status: FlowStatus): Promise<Flow | undefined> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE messaging.flows SET status = $3, updated_at = CASE WHEN status = $3 THEN updated_at ELSE now() END
        WHERE id = $1 AND tenant_id = $2 RETURNING id`,
      [id, tenantId, status],
    );
    return rows.length === 0 ? undefined : this.find(id, tenantId);
  }

  async find(id: string, tenantId: number, db: Db = this.dataSource): Promise<Flow | undefined> {
    const rows = await queryRows<Row>(db, `${SELECT} WHERE f.id = $1 AND f.tenant_id = $2`, [id, tenantId]);
    return rows[0] ? toFlow(rows[0]) : undefined;
  }

  async list(
    tenantId: number,
    filter: { channelAccountId?: string; status?: FlowStatus },
    page: number,
    perPage: number,
  ): Promise<{ items: Flow[]; total: number }> {
    const where = ['f.tenant_id = $1'];
    const params: unknown[] = [tenantId];
    if (filter.channelAccountId)
      where.push(`f.channel_account_id = $${params.push(filter.channelAccountId)}`);
    if (filter.status) where.push(`f.status = $${params.push(filter.status)}`);
    const clause = where.join(' AND ');
    const [rows, [{ total }]] = await Promise.all([
      queryRows<Row>(
        this.dataSource,
        `${SELECT} WHERE ${clause} ORDER BY f.created_at DESC, f.id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
        params,
      ),
      queryRows<{ total: number }>(
        this.dataSource,
        `SELECT count(*)::int AS total FROM messaging.flows f WHERE ${clause}`,
        params,
      ),
    ]);
    return { items: rows.map(toFlow), total };
  }

  /** The account's active flows at their current versions, oldest first (the first match wins). */
  async activeForAccount(db: Db, channelAccountId: string): Promise<Flow[]> {
    const rows = await queryRows<Row>(
      db,
      `${SELECT} WHERE f.channel_account_id = $1 AND f.status = 'active' ORDER BY f.created_at, f.id`,
      [channelAccountId],
    );
    return rows.map(toFlow);
  }

  /** The definition a session runs: the version it started on. */
  async definitionOf(db: Db, flowId: string, version: number): Promise<FlowDefinition | undefined> {
    const rows = await queryRows<{ definition: FlowDefinition }>(
      db,
      'SELECT definition FROM messaging.flow_versions WHERE flow_id = $1 AND version = $2',
      [flowId, version],
    );
    return rows[0]?.definition;
  }
}
