/** A number's tier capacity: conversations opened in the rolling window, and capacity held for campaigns. */

/** A number's tier capacity today: its limit (null: unlimited), what is used or held, and what is left. */
export interface Capacity {
  daily_limit: number | null;
  used_today: number;
  remaining: number | null;
}

/** Capacity held for a reference (a campaign) until it expires; re-reserving the reference replaces it. */
export interface CapacityHold {
  reference: string;
  count: number;
  ttlMs: number;
  partial: boolean;
}

/** The sending number a capacity belongs to: its business portfolio's limit is shared by all its numbers. */
export interface CapacityOwner {
  id: string;
  businessId: string;
}

/**
 * Business-initiated conversations per business portfolio in the rolling window (every number of a portfolio
 * draws on one limit, a customer counted once across them), and capacity held for campaigns.
 */
export interface CapacityLedger {
  /** The portfolio's conversations within the window plus what its live reservations still hold. */
  used(businessId: string): Promise<number>;
  capacityOf(dailyLimit: number | null, used: number): Capacity;
  /**
   * Reserves up to `count` slots of the number's portfolio for a reference atomically; what fits when `partial`,
   * else all or nothing.
   */
  reserve(
    owner: CapacityOwner,
    dailyLimit: number | null,
    hold: CapacityHold,
  ): Promise<{ granted: number; capacity: Capacity }>;
  release(channelAccountId: string, reference: string): Promise<void>;
}
