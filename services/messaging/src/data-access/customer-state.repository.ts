import type { DataSource, EntityManager } from 'typeorm';
import type { CustomerStateStore } from '../domain/ports/customer.port';
import { serviceWindowOpenSql } from './service-window-sql';

type Db = DataSource | EntityManager;

/** Service windows (open for SERVICE_WINDOW_HOURS after a customer's last message) and the opt-out copy kept for single sends. */
export class CustomerStateRepository implements CustomerStateStore {
  constructor(private readonly dataSource: DataSource) {}

  async isWindowOpen(db: Db, channelAccountId: string, phone: string): Promise<boolean> {
    const rows: unknown[] = await db.query(
      `SELECT 1 FROM messaging.service_windows w
        WHERE w.channel_account_id = $1 AND w.customer_phone = $2 AND ${serviceWindowOpenSql('w')}`,
      [channelAccountId, phone],
    );
    return rows.length > 0;
  }

  /** Opens or extends the window; an older message (out of order) never shortens it. */
  async touchWindow(tx: EntityManager, channelAccountId: string, phone: string, at: Date): Promise<void> {
    await tx.query(
      `INSERT INTO messaging.service_windows (channel_account_id, customer_phone, last_inbound_at)
       VALUES ($1, $2, $3)
       ON CONFLICT (channel_account_id, customer_phone)
       DO UPDATE SET last_inbound_at = GREATEST(service_windows.last_inbound_at, EXCLUDED.last_inbound_at)`,
      [channelAccountId, phone, at],
    );
  }

  async isOptedOut(tenantId: number, phone: string, db: Db = this.dataSource): Promise<boolean> {
    const rows: unknown[] = await db.query(
      'SELECT 1 FROM messaging.opt_outs WHERE tenant_id = $1 AND phone = $2 AND opted_out',
      [tenantId, phone],
    );
    return rows.length > 0;
  }

  /**
   * Applies one change of the copy unless a newer one (a higher version) is already applied; a removal is kept
   * as a row with opted_out false, so its version outlives it. A change without a version (written before
   * versions existed) is applied as it comes.
   */
  async setOptOut(
    tx: EntityManager,
    tenantId: number,
    phone: string,
    optedOut: boolean,
    version: number | undefined,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO messaging.opt_outs (tenant_id, phone, opted_out, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, phone) DO UPDATE
         SET opted_out = EXCLUDED.opted_out, version = GREATEST(opt_outs.version, EXCLUDED.version),
             updated_at = now()
       WHERE $5 OR opt_outs.version < EXCLUDED.version`,
      [tenantId, phone, optedOut, version ?? 0, version === undefined],
    );
  }
}
