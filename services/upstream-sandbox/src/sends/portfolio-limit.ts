import type { SandboxState } from '../state';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Unique customers a tier lets a portfolio reach with business-initiated messages in a moving 24 h. */
export const TIER_LIMITS: Readonly<Record<string, number>> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_5K: 5_000,
  TIER_10K: 10_000,
  TIER_20K: 20_000,
  TIER_50K: 50_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: Number.POSITIVE_INFINITY,
  TIER_NOT_SET: 250,
};

/**
 * Counts a business-initiated message to a customer against the portfolio's daily limit; false when the
 * customer would be one more than the limit allows. Portfolios nobody set a limit for are never limited.
 */
export function takeBusinessInitiated(state: SandboxState, businessId: string, userId: string): boolean {
  const business = state.businesses.get(businessId);
  if (business === undefined) return true;
  const now = Date.now();
  for (const [customer, at] of business.reached) if (at <= now - DAY_MS) business.reached.delete(customer);
  if (business.reached.has(userId)) return true;
  if (business.reached.size >= TIER_LIMITS[business.max_daily_conversations_per_business]) return false;
  business.reached.set(userId, now);
  return true;
}
