import { statusClass, type ServiceMetrics } from '@bm/platform';
import type { AttemptOutcome, WebhookMetrics } from '../../domain/ports/webhook-sender.port';

/** The failure class of an attempt without an answer: `timeout`, `connection_refused`, `address_blocked`... */
function errorClass(outcome: AttemptOutcome): string {
  return outcome.httpStatus === null ? outcome.error.split(':', 1)[0] : 'none';
}

/**
 * `bm_webhook_attempts_total{result,status_class,error}` (result: delivered, retry, failed; status_class: 2xx..5xx
 * or none) and `bm_webhook_attempt_duration_seconds{status_class}` for attempts that got an answer.
 */
export function webhookMetrics(metrics: ServiceMetrics): WebhookMetrics {
  const attempts = metrics.counter({
    name: 'bm_webhook_attempts_total',
    help: 'Outbound webhook attempts, by result (delivered, retry, failed), answer status class and failure class',
    labelNames: ['result', 'status_class', 'error'],
  });
  const duration = metrics.histogram({
    name: 'bm_webhook_attempt_duration_seconds',
    help: 'Time client endpoints took to answer a webhook, by status class',
    labelNames: ['status_class'],
  });
  return {
    attempt(result, outcome) {
      const status = statusClass(outcome.httpStatus);
      attempts.inc({
        result: result === 'pending' ? 'retry' : result,
        status_class: status,
        error: errorClass(outcome),
      });
      if (outcome.httpStatus !== null) duration.observe({ status_class: status }, outcome.durationMs / 1000);
    },
  };
}
