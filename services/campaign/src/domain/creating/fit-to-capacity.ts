import type { MessagingTierLimitDetails } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { Capacity } from '../ports/messaging.port';
import { partSizes } from './split-across-days';

/** The refusal of a campaign larger than the capacity left, when it may not be split across days. */
function tierLimitExceeded(capacity: Capacity, requested: number): AppError {
  const details: MessagingTierLimitDetails = {
    daily_limit: capacity.daily_limit ?? 0,
    used_today: capacity.used_today,
    remaining: capacity.remaining ?? 0,
    requested,
  };
  return new AppError(
    'MESSAGING_TIER_LIMIT_EXCEEDED',
    `The campaign has ${requested} recipients and the number can open ${details.remaining} more conversations ` +
      'in the rolling 24 hours; set split_across_days to send it in daily parts',
    details as unknown as Record<string, unknown>,
  );
}

/**
 * The part sizes of a list of `requested` recipients when `available` fit now, or MESSAGING_TIER_LIMIT_EXCEEDED
 * when they do not fit and the list may not be split across days.
 */
export function fitToCapacity(
  requested: number,
  available: number,
  capacity: Capacity,
  splitAcrossDays: boolean,
): number[] {
  if (available < requested && !splitAcrossDays) throw tierLimitExceeded(capacity, requested);
  return partSizes(requested, available, capacity.daily_limit);
}
