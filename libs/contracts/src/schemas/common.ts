import Joi from 'joi';

export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A ULID as the API prints them (Crockford base32, upper case). */
export const ulidSchema = Joi.string().pattern(ULID_PATTERN, 'ULID');

/** Positive integer id in a path, e.g. a message_log_id. */
export const integerIdSchema = Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);

/** The published pagination object. */
export interface Pagination {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export const paginationQuerySchema = {
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  per_page: Joi.number().integer().min(1).max(100).default(50),
};

/** Builds the published pagination object from a total and the page asked for. */
export function paginationOf(total: number, page: number, perPage: number): Pagination {
  return { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

export const MESSAGING_TIERS = [
  'TIER_50',
  'TIER_250',
  'TIER_1K',
  'TIER_2K',
  'TIER_5K',
  'TIER_10K',
  'TIER_20K',
  'TIER_50K',
  'TIER_100K',
  'TIER_UNLIMITED',
  // The upstream's name for a portfolio whose limit it has not set yet (WIRE-2026.md): counted as 250.
  'TIER_NOT_SET',
] as const;
export type MessagingTier = (typeof MESSAGING_TIERS)[number];

/** Daily business-initiated conversations per tier; null means no limit. */
export const TIER_DAILY_LIMIT: Record<MessagingTier, number | null> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_5K: 5_000,
  TIER_10K: 10_000,
  TIER_20K: 20_000,
  TIER_50K: 50_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
  TIER_NOT_SET: 250,
};
