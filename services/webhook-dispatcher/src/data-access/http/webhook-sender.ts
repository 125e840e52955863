import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import type { AddressPolicy } from '../../domain/address-policy';
import { guardedConnector } from './guarded-connector';
import {
  AttemptAbortedError,
  type AttemptOutcome,
  type WebhookSender as WebhookSenderPort,
} from '../../domain/ports/webhook-sender.port';
import { classifyFailure, parseRetryAfter } from './attempt-outcome';

export interface SenderOptions {
  timeoutMs: number;
  excerptBytes: number;
  /** Kept-alive connections per endpoint origin; matches the per-endpoint concurrency. */
  connectionsPerOrigin: number;
}

/**
 * POSTs webhook bodies: through the SSRF-guarded connector, never following redirects, with one deadline from
 * connect to the last byte, reading at most a small excerpt of the answer.
 */
export class WebhookSender implements WebhookSenderPort {
  private readonly agent: Agent;

  constructor(
    policy: AddressPolicy,
    private readonly o: SenderOptions,
  ) {
    this.agent = new Agent({
      connect: guardedConnector(policy, o.timeoutMs),
      connections: o.connectionsPerOrigin,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  async send(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const target = new URL(url);
    // One deadline for the whole attempt, answer excerpt included, ended early when the dispatcher stops. A timer
    // cleared when the attempt ends, rather than AbortSignal.timeout() and AbortSignal.any(): those leave a timer
    // behind that fires (and builds its DOMException) long after each attempt, and cost a composite signal each.
    const attempt = new AbortController();
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, this.o.timeoutMs);
    const stop = () => attempt.abort();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    const started = performance.now();
    try {
      const res = await this.agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers,
        body,
        signal: attempt.signal,
      });
      const excerpt = await this.readExcerpt(res.body);
      return {
        httpStatus: res.statusCode,
        durationMs: Math.round(performance.now() - started),
        excerpt,
        retryAfterMs: parseRetryAfter(res.headers['retry-after']),
      };
    } catch (err) {
      if (signal.aborted) throw new AttemptAbortedError('dispatcher stopping');
      const durationMs = Math.round(performance.now() - started);
      return classifyFailure(err, timedOut, this.o.timeoutMs, durationMs);
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener('abort', stop);
    }
  }

  close(): Promise<void> {
    return this.agent.destroy();
  }

  /**
   * Reads up to the excerpt size; a longer answer is cut off (its connection is dropped, not drained). Read by
   * events rather than an async iterator: most answers are one small chunk, and the iterator costs a few promises.
   */
  private readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string | null> {
    const limit = this.o.excerptBytes;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let taken = false;
      const finish = () => {
        if (taken) return;
        taken = true;
        if (size === 0) return resolve(null);
        // PostgreSQL text cannot hold NUL characters.
        resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8').replace(/\0/g, ''));
      };
      body.on('data', (chunk: Buffer) => {
        if (taken) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size < limit) return;
        finish();
        // Destroyed before its end, the body reports an abort: the excerpt is already taken.
        body.on('error', () => undefined);
        body.destroy();
      });
      body.once('end', finish);
      body.once('error', (err) => {
        if (!taken) reject(err);
      });
    });
  }
}
