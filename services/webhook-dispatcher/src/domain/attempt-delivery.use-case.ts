import { formatWebhookTimestamp, WEBHOOK_HEADERS } from '@bm/contracts';
import { runInTrace, traceHeaders } from '@bm/platform';
import type { AttemptRecord, ClaimedDelivery } from './ports/deliveries.port';
import type { AttemptOutcome } from './ports/webhook-sender.port';
import type { DispatcherDeps } from './dispatcher-deps';
import { answerError, nextStep } from './retry-policy';
import { signatureHeader } from './signature';

/** The published request headers; timestamp and signature are made fresh for every attempt. */
export function webhookHeaders(
  deps: DispatcherDeps,
  delivery: ClaimedDelivery,
  timestamp: string,
): Record<string, string> {
  const secrets = delivery.sealedSecrets.map((s) => deps.secrets.open(s));
  const signature = signatureHeader(secrets, timestamp, delivery.body);
  return {
    'user-agent': `${deps.config.DISPATCHER_SERVICE_NAME}-Webhook/1.0`,
    'content-type': 'application/json',
    accept: 'application/json',
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    ...(signature === undefined ? {} : { [WEBHOOK_HEADERS.signature]: signature }),
    [WEBHOOK_HEADERS.id]: delivery.eventId,
  };
}

/**
 * Sends unless the endpoint is gone or its URL is no longer allowed (the policy may have changed since); such an
 * attempt ends before any network time, so it took 0 ms.
 */
async function send(
  deps: DispatcherDeps,
  delivery: ClaimedDelivery,
  at: Date,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  if (delivery.url === null) {
    return {
      httpStatus: null,
      durationMs: 0,
      error: 'no_endpoint: the endpoint was removed or disabled, or has no URL',
      retryable: false,
    };
  }
  const refused = deps.policy.refuseUrl(delivery.url);
  if (refused !== undefined) {
    return { httpStatus: null, durationMs: 0, error: `address_blocked: ${refused}`, retryable: false };
  }
  const url = delivery.url;
  // Each attempt is a span of the event's trace; the receiver gets it as `traceparent`.
  return runInTrace(delivery.traceparent, () => {
    const headers = { ...webhookHeaders(deps, delivery, formatWebhookTimestamp(at)), ...traceHeaders() };
    return deps.sender.send(url, headers, delivery.body, signal);
  });
}

/** Records a finished attempt; false when the lease was no longer ours (the worker's next pass records it). */
export type RecordAttempt = (attempt: AttemptRecord) => Promise<boolean>;

/**
 * One attempt of a leased delivery: POST the stored body, then record the attempt and what follows (delivered, a
 * retry later, or failed). Rejects with AttemptAbortedError when the signal stops it; the caller releases the lease.
 */
export async function attemptDelivery(
  deps: DispatcherDeps,
  delivery: ClaimedDelivery,
  signal: AbortSignal,
  record: RecordAttempt,
): Promise<void> {
  const at = new Date();
  const attempt = delivery.attemptCount + 1;
  const outcome = await send(deps, delivery, at, signal);
  const c = deps.config;
  const next = nextStep(outcome, attempt, {
    maxRetries: c.DISPATCHER_MAX_RETRIES,
    intervalMs: c.DISPATCHER_RETRY_INTERVAL_MS,
    retryAfterMaxMs: c.DISPATCHER_RETRY_AFTER_MAX_MS,
  });
  deps.metrics.attempt(next.status, outcome);
  const answered = outcome.httpStatus !== null;
  const recorded = await record({
    deliveryId: delivery.id,
    leaseToken: delivery.leaseToken,
    status: next.status,
    retryInMs: next.retryInMs,
    url: delivery.url,
    at,
    durationMs: outcome.durationMs,
    httpStatus: outcome.httpStatus,
    error: answered ? answerError(outcome.httpStatus) : outcome.error,
    responseExcerpt: answered ? outcome.excerpt : null,
  });
  if (!recorded) {
    deps.logger.warn('webhook attempt outlived its lease; another replica owns the delivery', {
      delivery_id: delivery.id,
    });
  } else if (next.status === 'failed') {
    deps.logger.warn('webhook delivery failed', { delivery_id: delivery.id, tenant_id: delivery.tenantId });
  }
}
