import type { CustomerLink, OptOutSource } from '@bm/contracts';
import { queryRows } from '@bm/platform';
import type { ChoiceTime, OptOut, OptOuts } from '../domain/ports/opt-outs.port';
import type { Db } from './db';

interface Row {
  phone: string;
  source: OptOutSource;
  created_at: Date;
}

const toOptOut = (r: Row): OptOut => ({ phone: r.phone, source: r.source, createdAt: r.created_at });

/** A tenant's opted-out customers, each by address (a phone's normalized digits or a user id), and their links. */
export class OptOutRepository implements OptOuts {
  constructor(private readonly db: Db) {}

  /** Adds a phone; the new row, or undefined when it was already there (nothing changes then). */
  async add(tenantId: number, phone: string, source: OptOutSource): Promise<OptOut | undefined> {
    const rows: Row[] = await this.db.query(
      `INSERT INTO campaign.opt_outs (tenant_id, phone, source) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING phone, source, created_at`,
      [tenantId, phone, source],
    );
    return rows[0] ? toOptOut(rows[0]) : undefined;
  }

  async find(tenantId: number, phone: string): Promise<OptOut | undefined> {
    const rows: Row[] = await this.db.query(
      'SELECT phone, source, created_at FROM campaign.opt_outs WHERE tenant_id = $1 AND phone = $2',
      [tenantId, phone],
    );
    return rows[0] ? toOptOut(rows[0]) : undefined;
  }

  /** Removes a phone; whether it was there. */
  async remove(tenantId: number, phone: string): Promise<boolean> {
    const rows = await queryRows<{ phone: string }>(
      this.db,
      'DELETE FROM campaign.opt_outs WHERE tenant_id = $1 AND phone = $2 RETURNING phone',
      [tenantId, phone],
    );
    return rows.length > 0;
  }

  async link(tenantId: number, link: CustomerLink): Promise<boolean> {
    const rows = await queryRows<{ user_id: string }>(
      this.db,
      `INSERT INTO campaign.customer_links (tenant_id, user_id, phone) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, user_id) DO UPDATE SET phone = EXCLUDED.phone, linked_at = now()
       WHERE customer_links.phone <> EXCLUDED.phone
       RETURNING user_id`,
      [tenantId, link.userId, link.phone],
    );
    return rows.length > 0;
  }

  async forget(tenantId: number, address: string): Promise<void> {
    await this.db.query(
      'DELETE FROM campaign.customer_links WHERE tenant_id = $1 AND (user_id = $2 OR phone = $2)',
      [tenantId, address],
    );
  }

  async linkedTo(tenantId: number, address: string): Promise<string[]> {
    const rows: Array<{ a: string }> = await this.db.query(
      `SELECT phone AS a FROM campaign.customer_links WHERE tenant_id = $1 AND user_id = $2
       UNION SELECT user_id FROM campaign.customer_links WHERE tenant_id = $1 AND phone = $2`,
      [tenantId, address],
    );
    return rows.map((r) => r.a);
  }

  async recordChoice(tenantId: number, address: string, at: ChoiceTime): Promise<boolean> {
    // A row lost to the WHERE is still locked (ON CONFLICT DO UPDATE), so two choices of one address take turns.
    const rows = await queryRows<{ address: string }>(
      this.db,
      `INSERT INTO campaign.customer_choices (tenant_id, address, chosen_at, received_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, address) DO UPDATE SET chosen_at = EXCLUDED.chosen_at, received_at = EXCLUDED.received_at
       WHERE (customer_choices.chosen_at, customer_choices.received_at) < (EXCLUDED.chosen_at, EXCLUDED.received_at)
       RETURNING address`,
      [tenantId, address, at.chosenAt, at.receivedAt],
    );
    return rows.length > 0;
  }

  /** The version of a change just made in this transaction (after its row operation, which holds the row's lock). */
  async nextVersion(): Promise<number> {
    const rows: Array<{ version: string }> = await this.db.query(
      "SELECT nextval('campaign.opt_out_versions') AS version",
    );
    return Number(rows[0].version);
  }

  /** A page, newest first; `phonePrefix` (digits) narrows it to the phones that start with it. */
  async page(
    tenantId: number,
    page: number,
    perPage: number,
    phonePrefix = '',
  ): Promise<{ optOuts: OptOut[]; total: number }> {
    const where = `tenant_id = $1 AND phone LIKE $2 || '%'`;
    const [rows, count] = await Promise.all([
      this.db.query<Row[]>(
        `SELECT phone, source, created_at FROM campaign.opt_outs WHERE ${where}
          ORDER BY created_at DESC, phone LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
        [tenantId, phonePrefix],
      ),
      this.db.query<Array<{ total: string }>>(
        `SELECT count(*) AS total FROM campaign.opt_outs WHERE ${where}`,
        [tenantId, phonePrefix],
      ),
    ]);
    return { optOuts: rows.map(toOptOut), total: Number(count[0].total) };
  }

  /** Which of these addresses are opted out: one primary-key probe each. */
  async optedOutAmong(tenantId: number, addresses: readonly string[]): Promise<string[]> {
    if (addresses.length === 0) return [];
    const rows: Array<{ phone: string }> = await this.db.query(
      'SELECT phone FROM campaign.opt_outs WHERE tenant_id = $1 AND phone = ANY($2::text[])',
      [tenantId, [...new Set(addresses)]],
    );
    return rows.map((r) => r.phone);
  }
}
