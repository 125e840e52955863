export interface StatsRow {
  /** The bucket's start, UTC. */
  start: Date;
  status: string;
  count: number;
}

/** The per-tenant counters of message statuses, by hour and by day (the sum of the day's hours). */
export interface MessageStatsReader {
  hourly(tenantId: number, from: Date): Promise<StatsRow[]>;
  daily(tenantId: number, from: Date): Promise<StatsRow[]>;
  failuresByError(
    tenantId: number,
    from: Date,
    limit: number,
  ): Promise<Array<{ error: string; count: number }>>;
  /** The tenant's message costs per day and pricing category since `from`, in one currency. */
  costDaily(
    tenantId: number,
    from: Date,
    currency: string,
  ): Promise<Array<{ start: Date; category: string; amount: number }>>;
}

/** Upkeep of the counters, which leaves every figure as it was. */
export interface MessageStatsUpkeep {
  /**
   * Folds up to `limit` shard rows of hours that ended at least an hour ago into one row per hour and status;
   * answers how many rows it folded.
   */
  foldFinishedHours(limit: number): Promise<number>;
}
