export interface StatsRow {
  /** The bucket's start, UTC. */
  start: Date;
  status: string;
  count: number;
}

/** The per-tenant counters of message statuses, by hour and by day. */
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
