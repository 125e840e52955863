import type { MessageStatus } from './message-logs';

/** How many messages entered each status in a period (a message that was sent and then read counts in both). */
export type StatusCounts = Record<MessageStatus, number>;

export interface StatsBucketDto {
  /** The bucket's first instant (UTC): an hour, or a day at 00:00Z. */
  start: string;
  counts: StatusCounts;
}

/** What a day's messages cost (CONTRACT.md, per-message pricing), by the upstream's pricing category. */
export interface CostBucketDto {
  /** The day's first instant (00:00Z). */
  start: string;
  total: number;
  /** Each pricing category's part of the total; categories with nothing are left out. */
  by_category: Record<string, number>;
}

/** GET /api/v1/stats answer: the overview's figures, from counters kept as messages change status. */
export interface MessageStatsDto {
  generated_at: string;
  /** The last 24 hours including the current one, oldest first. */
  hourly: StatsBucketDto[];
  /** The last 30 days (UTC) including today, oldest first. */
  daily: StatsBucketDto[];
  totals_24h: StatusCounts;
  totals_30d: StatusCounts;
  /** delivered ÷ sent over 30 days; null before anything was sent. */
  delivery_rate: number | null;
  /** read ÷ delivered over 30 days; null before anything was delivered. */
  read_rate: number | null;
  /** Failed messages of the last 30 days by error message, most first (the top 10). */
  failures_by_error: Array<{ error: string; count: number }>;
  /** The rate card's currency, in which the costs below are given. */
  cost_currency: string;
  /** What the messages priced on each of the last 30 days (UTC) cost, oldest first. */
  cost_daily: CostBucketDto[];
  /** The 30 days' cost. */
  cost_30d: number;
}
