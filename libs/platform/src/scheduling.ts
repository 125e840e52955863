import { resolveScheduledAt, SCHEDULED_AT_PAST_MESSAGE } from '@bm/contracts';
import { AppError } from './errors';

/**
 * The UTC instant of a deferred send or campaign, or null when immediate; 422 VALIDATION_ERROR on
 * `scheduled_at` when it is not in the future (CONTRACT.md: both must be in the future).
 */
export function futureScheduledAt(scheduledAt: string | undefined, timeZone = 'UTC'): Date | null {
  if (scheduledAt === undefined) return null;
  const at = resolveScheduledAt(scheduledAt, timeZone);
  if (at === null || at.getTime() <= Date.now()) {
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', {
      errors: [{ field: 'scheduled_at', message: SCHEDULED_AT_PAST_MESSAGE }],
    });
  }
  return at;
}
