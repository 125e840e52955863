import type { DataSource, EntityManager } from 'typeorm';
import type { CustomerLink } from '@bm/contracts';
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

  /** Whether the customer at this address (or at an address linked to it) is opted out: one statement. */
  async isOptedOut(tenantId: number, address: string, db: Db = this.dataSource): Promise<boolean> {
    const rows: unknown[] = await db.query(
      `SELECT 1 FROM messaging.opt_outs o
        WHERE o.tenant_id = $1 AND o.opted_out AND o.phone IN (
          SELECT $2::text
          UNION ALL SELECT phone FROM messaging.customer_links WHERE tenant_id = $1 AND user_id = $2
          UNION ALL SELECT user_id FROM messaging.customer_links WHERE tenant_id = $1 AND phone = $2)
        LIMIT 1`,
      [tenantId, address],
    );
    return rows.length > 0;
  }

  /** Moves a customer's window on an account to their new address; the later of the two windows is kept. */
  async moveWindow(tx: EntityManager, channelAccountId: string, from: string, to: string): Promise<void> {
    await tx.query(
      `WITH moved AS (
         DELETE FROM messaging.service_windows WHERE channel_account_id = $1 AND customer_phone = $2
         RETURNING last_inbound_at)
       INSERT INTO messaging.service_windows (channel_account_id, customer_phone, last_inbound_at)
       SELECT $1, $3, last_inbound_at FROM moved
       ON CONFLICT (channel_account_id, customer_phone)
       DO UPDATE SET last_inbound_at = GREATEST(service_windows.last_inbound_at, EXCLUDED.last_inbound_at)`,
      [channelAccountId, from, to],
    );
  }

  async link(tx: EntityManager, tenantId: number, link: CustomerLink): Promise<void> {
    await tx.query(
      `INSERT INTO messaging.customer_links (tenant_id, user_id, phone) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, user_id) DO UPDATE SET phone = EXCLUDED.phone, linked_at = now()
       WHERE customer_links.phone <> EXCLUDED.phone`,
      [tenantId, link.userId, link.phone],
    );
  }

  async forget(tx: EntityManager, tenantId: number, address: string): Promise<void> {
    await tx.query(
      'DELETE FROM messaging.customer_links WHERE tenant_id = $1 AND (user_id = $2 OR phone = $2)',
      [tenantId, address],
    );
  }

  async addressesOf(tenantId: number, address: string, db: Db = this.dataSource): Promise<string[]> {
    const rows: Array<{ a: string }> = await db.query(
      `SELECT phone AS a FROM messaging.customer_links WHERE tenant_id = $1 AND user_id = $2
       UNION SELECT user_id FROM messaging.customer_links WHERE tenant_id = $1 AND phone = $2`,
      [tenantId, address],
    );
    return [address, ...rows.map((r) => r.a)];
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
