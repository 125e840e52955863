import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import type { AddressPolicy } from '../../domain/address-policy';
import { guardedConnector } from './guarded-connector';
import { classifyFailure, parseRetryAfter, type AttemptOutcome } from './attempt-outcome';

export interface SenderOptions {
  timeoutMs: number;
  excerptBytes: number;
  /** Kept-alive connections per endpoint origin; matches the per-endpoint concurrency. */
  connectionsPerOrigin: number;
}

/** Thrown when the caller aborted (the dispatcher is stopping): the attempt neither failed nor succeeded. */
export class AttemptAbortedError extends Error {}

/**
 * POSTs webhook bodies: through the SSRF-guarded connector, never following redirects, with one deadline from
 * connect to the last byte, reading at most a small excerpt of the answer.
 */
export class WebhookSender {
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
    // One deadline for the whole attempt, answer excerpt included, ended early when the dispatcher stops.
    const deadline = AbortSignal.timeout(this.o.timeoutMs);
    const started = performance.now();
    try {
      const res = await this.agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.any([deadline, signal]),
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
      return classifyFailure(err, deadline.aborted, this.o.timeoutMs, durationMs);
    }
  }

  close(): Promise<void> {
    return this.agent.destroy();
  }

  /** Reads up to the excerpt size; a longer answer is cut off (its connection is dropped, not drained). */
  private async readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string | null> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      chunks.push(buf);
      size += buf.length;
      if (size >= this.o.excerptBytes) break;
    }
    if (size === 0) return null;
    // PostgreSQL text cannot hold NUL characters.
    return Buffer.concat(chunks).subarray(0, this.o.excerptBytes).toString('utf8').replace(/\0/g, '');
  }
}
