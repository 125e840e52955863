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

/** Business-initiated conversations per number in the rolling window, and capacity held for campaigns. */
export interface CapacityLedger {
  /** Conversations within the window plus what live reservations still hold. */
  used(channelAccountId: string): Promise<number>;
  capacityOf(dailyLimit: number | null, used: number): Capacity;
  /** Reserves up to `count` slots for a reference atomically; what fits when `partial`, else all or nothing. */
  reserve(
    channelAccountId: string,
    dailyLimit: number | null,
    hold: CapacityHold,
  ): Promise<{ granted: number; capacity: Capacity }>;
  release(channelAccountId: string, reference: string): Promise<void>;
}
