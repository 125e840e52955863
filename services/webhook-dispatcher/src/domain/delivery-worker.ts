import { randomUUID } from 'node:crypto';
import type { ClaimedDelivery } from '../data-access/delivery.repository';
import { AttemptAbortedError } from '../data-access/http/webhook-sender';
import { attemptDelivery } from './attempt-delivery.use-case';
import type { DispatcherDeps } from './dispatcher-deps';

const CLAIM_BATCH = 100;
const LINGER_MS = 2;

interface Running {
  delivery: ClaimedDelivery;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Runs attempts off the consumer path: claims due deliveries (leased, at most the per-endpoint limit in flight
 * across replicas), runs up to the replica's concurrency at once, and claims again as soon as one finishes, when
 * woken by a new delivery, or every poll interval (retries and other replicas' deliveries).
 */
export class DeliveryWorker {
  private readonly running = new Map<string, Running>();
  private timer?: NodeJS.Timeout;
  private pass?: Promise<void>;
  private again = false;
  private stopped = true;
  /** The pause after a claim that found nothing: doubles up to the idle poll interval, back on any wake. */
  private idlePauseMs = 0;

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Ids of the deliveries this replica is attempting now. */
  inFlight(): string[] {
    return [...this.running.keys()];
  }

  /** Claims now, or right after the pass in progress. */
  wake(): void {
    this.idlePauseMs = this.deps.config.DISPATCHER_POLL_INTERVAL_MS;
    this.claim();
  }

  private claim(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.again = false;
    this.pass = this.claimAndStart()
      .then(async (outcome) => ({ ...outcome, pauseMs: await this.pauseAfter(outcome.claimed) }))
      .catch((err: unknown) => {
        this.deps.logger.warn('webhook claim failed', { error: (err as Error).message });
        return { more: false, pauseMs: this.deps.config.DISPATCHER_POLL_INTERVAL_MS };
      })
      .then(({ more, pauseMs }) => {
        this.pass = undefined;
        if (this.stopped) return;
        if (more) setImmediate(() => this.claim());
        // Woken meanwhile: claim again after a moment, so finishes arriving together share one claim.
        else if (this.again) this.timer = setTimeout(() => this.claim(), LINGER_MS);
        else this.timer = setTimeout(() => this.claim(), pauseMs);
      });
  }

  /** The poll interval while there is work; while idle a doubling pause, cut short by the next retry's time. */
  private async pauseAfter(claimed: number): Promise<number> {
    const c = this.deps.config;
    if (claimed > 0 || this.running.size > 0) {
      this.idlePauseMs = c.DISPATCHER_POLL_INTERVAL_MS;
      return c.DISPATCHER_POLL_INTERVAL_MS;
    }
    const pause = this.idlePauseMs;
    this.idlePauseMs = Math.min(
      pause * 2,
      Math.max(c.DISPATCHER_POLL_INTERVAL_MS, c.DISPATCHER_IDLE_POLL_INTERVAL_MS),
    );
    const due = await this.deps.deliveries.nextDueAt();
    return due ? Math.max(0, Math.min(pause, due.getTime() - Date.now())) : pause;
  }

  /**
   * Stops claiming and aborts the attempts in flight. Their leases are given back at once so another replica
   * retries them now with the same event id; with `releaseLeases: false` (a crash, as tests simulate it) they
   * come back when the lease expires.
   */
  async stop({ releaseLeases = true } = {}): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass;
    const running = [...this.running.values()];
    for (const r of running) r.controller.abort();
    await Promise.allSettled(running.map((r) => r.done));
    if (releaseLeases) {
      await Promise.allSettled(
        running.map((r) => this.deps.deliveries.release(r.delivery.id, r.delivery.leaseToken)),
      );
    }
  }

  /** Starts the attempts of one claim; `more` when the batch was full and there is room for more. */
  private async claimAndStart(): Promise<{ claimed: number; more: boolean }> {
    const c = this.deps.config;
    const room = c.DISPATCHER_CONCURRENCY - this.running.size;
    if (room <= 0) return { claimed: 0, more: false };
    const limit = Math.min(room, CLAIM_BATCH);
    const leaseMs = c.DISPATCHER_TIMEOUT_MS + c.DISPATCHER_LEASE_GRACE_MS;
    const claimed = await this.deps.deliveries.claim(
      limit,
      c.DISPATCHER_ENDPOINT_CONCURRENCY,
      leaseMs,
      randomUUID(),
    );
    for (const delivery of claimed) this.begin(delivery);
    return {
      claimed: claimed.length,
      more: claimed.length === limit && this.running.size < c.DISPATCHER_CONCURRENCY,
    };
  }

  private begin(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    const done = attemptDelivery(this.deps, delivery, controller.signal)
      .catch((err: unknown) => {
        if (err instanceof AttemptAbortedError) return;
        // Not recorded (the database failed): the lease expires and the attempt is made again.
        this.deps.logger.error('webhook attempt could not be recorded', {
          delivery_id: delivery.id,
          error: (err as Error).message,
        });
      })
      .finally(() => {
        this.running.delete(delivery.id);
        this.wake();
      });
    this.running.set(delivery.id, { delivery, controller, done });
  }
}
