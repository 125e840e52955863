import { AppError, safeEqual, type Logger } from '@bm/platform';

export interface SubscriptionQuery {
  mode: unknown;
  token: unknown;
  challenge: unknown;
}

/**
 * The upstream's verification GET: with `hub.mode=subscribe` and the verify token (compared in constant time)
 * the challenge is echoed back; anything else is 403 VERIFICATION_FAILED.
 */
export function verifySubscription(verifyToken: string, query: SubscriptionQuery, logger: Logger): string {
  const { mode, token, challenge } = query;
  if (
    mode === 'subscribe' &&
    typeof token === 'string' &&
    typeof challenge === 'string' &&
    safeEqual(token, verifyToken)
  ) {
    return challenge;
  }
  logger.warn('webhook verification refused', { mode: typeof mode === 'string' ? mode : null });
  throw new AppError('VERIFICATION_FAILED');
}
