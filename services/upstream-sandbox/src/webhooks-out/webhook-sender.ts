import type { Logger } from '@bm/platform';
import { appendBounded, nextSeq, type SandboxState, type WebhookRecord } from '../state';
import { signBody } from './signature';
import type { Timers } from './timers';

export interface WebhookTarget {
  url: string;
  secret: string;
}

interface SenderOptions {
  state: SandboxState;
  timers: Timers;
  logger: Logger;
  maxAttempts: number;
  retryBaseMs: number;
  /** The longest pause between two tries. */
  retryMaxMs?: number;
}

const ATTEMPT_TIMEOUT_MS = 5_000;

/**
 * Posts signed webhooks like the upstream: retried with backoff (capped at `retryMaxMs`; base = cap is a fixed
 * interval, as the real network's retries of a refused webhook come every 30 s or so) on a non-2xx or a network
 * error, never thrown.
 */
export class WebhookSender {
  constructor(private readonly options: SenderOptions) {}

  /** Resolves true once a 2xx answered, false after the last attempt or when the sandbox resets. */
  async deliver(kind: string, target: WebhookTarget, payload: unknown): Promise<boolean> {
    const { state, timers, logger, maxAttempts, retryBaseMs, retryMaxMs = Infinity } = this.options;
    const raw = Buffer.from(JSON.stringify(payload));
    const signature = signBody(raw, target.secret);
    const record: WebhookRecord = {
      seq: nextSeq(state),
      kind,
      url: target.url,
      body: payload,
      attempts: [],
      delivered: false,
    };
    appendBounded(state, state.webhooks, record);
    const epoch = timers.epoch;
    for (let attempt = 1; attempt <= maxAttempts && timers.epoch === epoch; attempt += 1) {
      const at = new Date().toISOString();
      try {
        const res = await fetch(target.url, {
          method: 'POST',
          body: raw,
          headers: {
            'Content-Type': 'application/json',
            'X-Hub-Signature-256': signature,
            'User-Agent': 'facebookexternalua',
          },
          redirect: 'manual',
          signal: AbortSignal.any([timers.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
        });
        // The answer's body is not needed, but its connection goes back to the pool only once it is read.
        await res.arrayBuffer();
        record.attempts.push({ at, http_status: res.status });
        if (res.status >= 200 && res.status < 300) {
          record.delivered = true;
          return true;
        }
      } catch (err) {
        record.attempts.push({ at, error: (err as Error).message });
      }
      const pauseMs = Math.min(retryBaseMs * 2 ** (attempt - 1), retryMaxMs);
      if (attempt < maxAttempts && !(await timers.sleep(pauseMs))) break;
    }
    logger.warn('webhook not delivered', { kind, url: target.url, attempts: record.attempts.length });
    return false;
  }
}
