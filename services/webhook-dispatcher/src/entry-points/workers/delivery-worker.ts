import { randomUUID } from 'node:crypto';
import type { AttemptRecord, ClaimedDelivery } from '../../domain/ports/deliveries.port';
import type { LeaseSettings, LeaseTaker } from '../../domain/ports/events.port';
import type { DispatcherConfig } from '../../config';
import { AttemptAbortedError } from '../../domain/ports/webhook-sender.port';
import { attemptDelivery } from '../../domain/attempt-delivery.use-case';
import type { DispatcherDeps } from '../../domain/dispatcher-deps';

const CLAIM_BATCH = 100;
/** A wake during a pass: the next pass waits this long, so finishes and events arriving together share it. */
const LINGER_MS = 2;
/** A finished attempt waits at most this long for the pass that records it (and fills its slot). */
const RECORD_LINGER_MS = 5;

/** An attempt's lease: the timeout plus a grace; after it another replica may take the delivery. */
export function leaseSettings(c: DispatcherConfig): LeaseSettings {
  return {
    perEndpoint: c.DISPATCHER_ENDPOINT_CONCURRENCY,
    leaseMs: c.DISPATCHER_TIMEOUT_MS + c.DISPATCHER_LEASE_GRACE_MS,
  };
}

interface Running {
  delivery: ClaimedDelivery;
  controller: AbortController;
  done: Promise<void>;
}

interface Finished {
  attempt: AttemptRecord;
  resolve: (recorded: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs attempts off the consumer path. Each pass is one statement: it records the attempts finished since the last
 * one and claims due deliveries (leased, at most the per-endpoint limit in flight across replicas), so a finished
 * attempt's slot is filled by the same statement that frees it. Up to the replica's concurrency run at once. A pass
 * runs when woken by a new delivery, within a few milliseconds of an attempt finishing, or every poll interval
 * (retries and other replicas' deliveries); while idle, at the next retry's time or a doubling pause.
 */
export class DeliveryWorker implements LeaseTaker {
  private readonly running = new Map<string, Running>();
  /** Slots promised to deliveries being leased as they are stored. */
  private reserved = 0;
  private finished: Finished[] = [];
  private timer?: NodeJS.Timeout;
  /** When the scheduled pass runs (ms since the epoch), to keep only the earliest. */
  private timerAt = Infinity;
  private pass?: Promise<void>;
  /** Wakes so far; a pass covers those before it began. */
  private wakes = 0;
  private stopped = true;
  /** The pause after a pass that found nothing: doubles up to the idle poll interval, back on any wake. */
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

  /** A delivery is due now: a pass at once (wakes in the same turn share it), or right after the one running. */
  wake(): void {
    this.wakes += 1;
    this.idlePauseMs = this.deps.config.DISPATCHER_POLL_INTERVAL_MS;
    this.schedule(0);
  }

  reserve(max: number): number {
    if (this.stopped) return 0;
    const room = this.deps.config.DISPATCHER_CONCURRENCY - this.running.size - this.reserved;
    const n = Math.max(0, Math.min(max, room));
    this.reserved += n;
    return n;
  }

  adopt(leased: ClaimedDelivery[], reserved: number): void {
    this.reserved -= reserved;
    if (this.stopped) {
      // Stopped meanwhile: given back at once, as the attempts a stop aborts.
      for (const d of leased) void this.deps.deliveries.release(d.id, d.leaseToken).catch(() => undefined);
      return;
    }
    for (const delivery of leased) this.begin(delivery);
  }

  /** Records a finished attempt in the next pass; false when its lease was no longer ours. */
  private record(attempt: AttemptRecord): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.finished.push({ attempt, resolve, reject });
      // Stopping: no pass claims any more, the finished attempts are recorded at once.
      if (this.stopped) void this.recordWhileStopping();
      else this.schedule(RECORD_LINGER_MS);
    });
  }

  /** Runs a pass after `delayMs` unless one is due sooner; while a pass runs, the next is decided when it ends. */
  private schedule(delayMs: number): void {
    if (this.stopped || this.pass) return;
    const at = Date.now() + delayMs;
    if (this.timer !== undefined && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.runPass(), delayMs);
  }

  private runPass(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const covered = this.wakes;
    this.pass = this.recordAndClaim()
      .catch((err: unknown) => {
        this.deps.logger.warn('webhook claim failed', { error: (err as Error).message });
        return { more: false, pauseMs: this.deps.config.DISPATCHER_POLL_INTERVAL_MS };
      })
      .then(({ more, pauseMs }) => {
        this.pass = undefined;
        if (more) this.schedule(0);
        // Woken meanwhile (the pass may not have seen that delivery), or attempts finished during it: again
        // after a moment, so what arrives together shares the next pass.
        else if (this.wakes > covered || this.finished.length > 0) this.schedule(LINGER_MS);
        else this.schedule(pauseMs);
      });
  }

  /**
   * Stops claiming and aborts the attempts in flight. Their leases are given back at once so another replica
   * retries them now with the same event id; with `releaseLeases: false` (a crash, as tests simulate it) they
   * come back when the lease expires. Attempts that finished before the abort are recorded.
   */
  async stop({ releaseLeases = true } = {}): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.pass;
    const running = [...this.running.values()];
    for (const r of running) r.controller.abort();
    await this.recordWhileStopping();
    await Promise.allSettled(running.map((r) => r.done));
    if (releaseLeases) {
      await Promise.allSettled(
        running.map((r) => this.deps.deliveries.release(r.delivery.id, r.delivery.leaseToken)),
      );
    }
  }

  private async recordWhileStopping(): Promise<void> {
    const finished = this.finished.splice(0);
    if (finished.length === 0) return;
    await this.settle(finished, () =>
      this.deps.deliveries.recordAndClaim({
        ...this.claimRequest(0),
        finished: finished.map((f) => f.attempt),
      }),
    );
  }

  /** One pass: records what finished, starts what it claimed; `more` when the claim was full and there is room. */
  private async recordAndClaim(): Promise<{ more: boolean; pauseMs: number }> {
    const c = this.deps.config;
    const finished = this.finished.splice(0);
    // The finished attempts still count as running until recorded; this pass frees their slots before claiming.
    const busy = this.running.size + this.reserved - finished.length;
    const limit = Math.max(0, Math.min(c.DISPATCHER_CONCURRENCY - busy, CLAIM_BATCH));
    // The claim's room is held until it ends, so that stores leasing meanwhile do not take it too.
    this.reserved += limit;
    const result = await this.settle(finished, () =>
      this.deps.deliveries.recordAndClaim({
        ...this.claimRequest(limit),
        finished: finished.map((f) => f.attempt),
        wantNextDue: busy === 0,
      }),
    ).finally(() => {
      this.reserved -= limit;
    });
    if (this.stopped) {
      // Stopped during the pass: what it leased comes back when the lease expires, or at once here.
      await Promise.allSettled(result.claimed.map((d) => this.deps.deliveries.release(d.id, d.leaseToken)));
      return { more: false, pauseMs: 0 };
    }
    for (const delivery of result.claimed) this.begin(delivery);
    const claimed = result.claimed.length;
    return {
      more: limit > 0 && claimed === limit && busy + claimed < c.DISPATCHER_CONCURRENCY,
      pauseMs: this.pauseAfter(claimed, busy, result.nextDueAt),
    };
  }

  private claimRequest(limit: number) {
    return { ...leaseSettings(this.deps.config), claimLimit: limit, token: randomUUID(), wantNextDue: false };
  }

  /** Runs the pass and tells each finished attempt whether it was recorded (or why not). */
  private async settle<T extends { recorded: Set<string> }>(
    finished: Finished[],
    pass: () => Promise<T>,
  ): Promise<T> {
    try {
      const result = await pass();
      for (const f of finished) f.resolve(result.recorded.has(f.attempt.deliveryId));
      return result;
    } catch (err) {
      for (const f of finished) f.reject(err);
      throw err;
    }
  }

  /** The poll interval while there is work; while idle a doubling pause, cut short by the next retry's time. */
  private pauseAfter(claimed: number, busy: number, due: Date | undefined): number {
    const c = this.deps.config;
    if (claimed > 0 || busy > 0) {
      this.idlePauseMs = c.DISPATCHER_POLL_INTERVAL_MS;
      return c.DISPATCHER_POLL_INTERVAL_MS;
    }
    const pause = this.idlePauseMs;
    this.idlePauseMs = Math.min(
      pause * 2,
      Math.max(c.DISPATCHER_POLL_INTERVAL_MS, c.DISPATCHER_IDLE_POLL_INTERVAL_MS),
    );
    return due ? Math.max(0, Math.min(pause, due.getTime() - Date.now())) : pause;
  }

  private begin(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    const done = attemptDelivery(this.deps, delivery, controller.signal, (a) => this.record(a))
      .catch((err: unknown) => {
        if (err instanceof AttemptAbortedError) return;
        // Not recorded (the database failed): the lease expires and the attempt is made again.
        this.deps.logger.error('webhook attempt could not be recorded', {
          delivery_id: delivery.id,
          error: (err as Error).message,
        });
      })
      .finally(() => this.running.delete(delivery.id));
    this.running.set(delivery.id, { delivery, controller, done });
  }
}
