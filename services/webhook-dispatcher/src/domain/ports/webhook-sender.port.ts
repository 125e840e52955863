/** The HTTP side of a webhook attempt, as the domain sees it; data-access/http implements it. */

/**
 * What one attempt came to: an HTTP answer (any status) or a failure before one. Either way it took `durationMs`,
 * from its start to the answer's last byte read or to the failure (a timeout's is about the timeout).
 */
export type AttemptOutcome =
  | { httpStatus: number; durationMs: number; excerpt: string | null; retryAfterMs?: number }
  | { httpStatus: null; durationMs: number; error: string; retryable: boolean };

/** Thrown when the caller aborted (the dispatcher is stopping): the attempt neither failed nor succeeded. */
export class AttemptAbortedError extends Error {}

/** POSTs one signed webhook body and tells what came of it; never throws but AttemptAbortedError. */
export interface WebhookSender {
  send(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

/** What the dispatcher records per webhook attempt. */
export interface WebhookMetrics {
  /** One attempt and what it led to: `delivered`, `pending` (a retry is due) or `failed` (given up). */
  attempt(result: 'pending' | 'delivered' | 'failed', outcome: AttemptOutcome): void;
}
