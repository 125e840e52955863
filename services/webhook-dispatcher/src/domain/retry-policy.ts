import type { AttemptOutcome } from './ports/webhook-sender.port';

export interface RetrySettings {
  maxRetries: number;
  intervalMs: number;
  retryAfterMaxMs: number;
}

export interface NextStep {
  status: 'delivered' | 'pending' | 'failed';
  retryInMs: number;
}

/**
 * After attempt number `attempt`: a 2xx answer delivers; any other answer, a timeout or a network error is retried
 * `intervalMs` later (longer when the receiver's Retry-After asks for it, up to the cap) while retries remain;
 * then, or at once for a refusal that cannot change, the delivery has failed.
 */
export function nextStep(outcome: AttemptOutcome, attempt: number, s: RetrySettings): NextStep {
  if (outcome.httpStatus !== null && outcome.httpStatus >= 200 && outcome.httpStatus < 300) {
    return { status: 'delivered', retryInMs: 0 };
  }
  const retryable = outcome.httpStatus !== null || outcome.retryable;
  if (!retryable || attempt > s.maxRetries) return { status: 'failed', retryInMs: 0 };
  const asked = outcome.httpStatus !== null ? (outcome.retryAfterMs ?? 0) : 0;
  return { status: 'pending', retryInMs: Math.max(s.intervalMs, Math.min(asked, s.retryAfterMaxMs)) };
}

/** The monitor's error text of an HTTP answer that is not a success; null for a 2xx. */
export function answerError(httpStatus: number): string | null {
  if (httpStatus >= 200 && httpStatus < 300) return null;
  if (httpStatus >= 300 && httpStatus < 400) return `redirect_not_followed: HTTP ${httpStatus}`;
  return `http_error: HTTP ${httpStatus}`;
}
