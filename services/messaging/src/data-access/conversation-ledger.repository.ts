import { newUlid, withTransaction } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { Capacity, CapacityHold, CapacityLedger, CapacityOwner } from '../domain/ports/capacity.port';
import { serviceWindowOpenSql } from './service-window-sql';

type Db = DataSource | EntityManager;

/** The tier limit's rolling window: 24 h (configuration, so tests can watch capacity free up). */
export const DEFAULT_CAPACITY_WINDOW_MS = 24 * 3600 * 1000;

/** The window as a SQL interval; the number comes from validated configuration, never from a request. */
function windowSql(windowMs: number): string {
  return `(${Math.trunc(windowMs)} * interval '1 millisecond')`;
}

/**
 * Opens a business-initiated conversation for each row of `source` (columns channel_account_id, to_phone, id,
 * reference) whose customer has no open service window with the number and no conversation opened within the
 * window by any number of its portfolio (the portfolio's limit counts a customer once). The row's `business_id`
 * is its number's, filled by the table's trigger.
 */
export function openConversationSql(source: string, windowMs = DEFAULT_CAPACITY_WINDOW_MS): string {
  return `INSERT INTO messaging.conversations (channel_account_id, customer_phone, message_log_id, reference)
    SELECT s.channel_account_id, s.to_phone, s.id, s.reference FROM ${source} s
      JOIN messaging.channel_accounts a ON a.id = s.channel_account_id
     WHERE NOT EXISTS (SELECT 1 FROM messaging.service_windows w
                        WHERE w.channel_account_id = s.channel_account_id AND w.customer_phone = s.to_phone
                          AND ${serviceWindowOpenSql('w')})
       AND NOT EXISTS (SELECT 1 FROM messaging.conversations c
                        WHERE c.business_id = a.business_id AND c.customer_phone = s.to_phone
                          AND c.opened_at > now() - ${windowSql(windowMs)})`;
}

/**
 * Business-initiated conversations per business portfolio in a rolling window (24 h), and capacity held for
 * campaigns. A reservation holds `count` slots minus the conversations its campaign has opened since on its number.
 */
export class ConversationLedger implements CapacityLedger {
  constructor(
    private readonly dataSource: DataSource,
    private readonly windowMs = DEFAULT_CAPACITY_WINDOW_MS,
  ) {}

  /** Used = the portfolio's conversations within the window plus what its live reservations still hold. */
  async used(businessId: string, db: Db = this.dataSource): Promise<number> {
    const rows: Array<{ used: string }> = await db.query(
      `SELECT
         (SELECT count(*) FROM messaging.conversations
           WHERE business_id = $1 AND opened_at > now() - ${windowSql(this.windowMs)})
       + COALESCE((SELECT sum(GREATEST(r.count - (
             SELECT count(*) FROM messaging.conversations c
              WHERE c.channel_account_id = r.channel_account_id AND c.reference = r.reference
                AND c.opened_at >= r.created_at), 0))
           FROM messaging.capacity_reservations r
          WHERE r.business_id = $1 AND r.expires_at > now()), 0) AS used`,
      [businessId],
    );
    return Number(rows[0].used);
  }

  capacityOf(dailyLimit: number | null, used: number): Capacity {
    return {
      daily_limit: dailyLimit,
      used_today: used,
      remaining: dailyLimit === null ? null : Math.max(0, dailyLimit - used),
    };
  }

  /**
   * Reserves up to `count` slots of a number's portfolio for a reference (a campaign) atomically: concurrent
   * reservations in one portfolio (on any of its numbers) are serialized by an advisory lock, so two of them cannot
   * both take the last slot. Grants what fits when `partial`, else all or nothing. Re-reserving the same reference
   * replaces its hold.
   */
  async reserve(
    owner: CapacityOwner,
    dailyLimit: number | null,
    { reference, count, ttlMs, partial }: CapacityHold,
  ): Promise<{ granted: number; capacity: Capacity }> {
    const channelAccountId = owner.id;
    return withTransaction(this.dataSource, async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`capacity:${owner.businessId}`]);
      await tx.query(
        'DELETE FROM messaging.capacity_reservations WHERE channel_account_id = $1 AND reference = $2',
        [channelAccountId, reference],
      );
      const used = await this.used(owner.businessId, tx);
      const before = this.capacityOf(dailyLimit, used);
      const available = before.remaining === null ? count : before.remaining;
      const granted = count <= available ? count : partial ? available : 0;
      if (granted > 0) {
        await tx.query(
          `INSERT INTO messaging.capacity_reservations (id, channel_account_id, reference, count, expires_at)
           VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')`,
          [newUlid(), channelAccountId, reference, granted, ttlMs],
        );
      }
      return { granted, capacity: this.capacityOf(dailyLimit, used + granted) };
    });
  }

  async release(channelAccountId: string, reference: string): Promise<void> {
    await this.dataSource.query(
      'DELETE FROM messaging.capacity_reservations WHERE channel_account_id = $1 AND reference = $2',
      [channelAccountId, reference],
    );
  }
}
