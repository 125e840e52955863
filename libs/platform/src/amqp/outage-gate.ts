/** Capped exponential backoff: the first wait, and the longest. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** The wait before retry number `failures` (from 1): doubling from initialMs up to maxMs, with equal jitter. */
export function backoffDelay(failures: number, backoff: Backoff): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, failures - 1));
  // Jitter, so the replicas of a service do not all come back to a recovering database at the same instant.
  return Math.round(base / 2 + (Math.random() * base) / 2);
}

/** Permission to run a handler; the probe is the one delivery let through while the gate is paused. */
export interface Turn {
  probe: boolean;
}

/** What the gate reports as it pauses and resumes. */
export interface GateEvents {
  paused(retryInMs: number): void;
  probing(failures: number, retryInMs: number): void;
  resumed(pausedMs: number, released: number): void;
}

/**
 * A consumer's view of its dependencies. Open, every delivery runs its handler. After a transient failure it
 * pauses: deliveries wait (holding their prefetch slot, so the broker sends no more) and, after a backoff, one of
 * them runs as the probe; the probe's transient failure doubles the backoff, up to its cap, for as long as the
 * outage lasts. The first success reopens the gate and releases every waiting delivery.
 */
export class OutageGate {
  private paused = false;
  private pausedAt = 0;
  private failures = 0;
  /** When the gate last reopened, and how deep into its backoff it was: a relapse continues from there. */
  private reopened = { at: 0, failures: 0 };
  private probeDue = false;
  /** Closed for good (the consumer stops): no delivery runs again, and no probe is scheduled. */
  private closed = false;
  private timer?: NodeJS.Timeout;
  private readonly waiting: Array<(turn: Turn | undefined) => void> = [];

  constructor(
    private readonly backoff: Backoff,
    private readonly events: GateEvents,
  ) {}

  /** True while a transient failure holds new work back. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Resolves once the delivery may run its handler; undefined when it was abandoned instead. */
  turn(): Promise<Turn | undefined> {
    // A handler that failed transiently after close() asks again: it is let go at once, or stop() would wait
    // for a turn no timer will ever give.
    if (this.closed) return Promise.resolve(undefined);
    if (!this.paused) return Promise.resolve({ probe: false });
    if (this.probeDue) {
      this.probeDue = false;
      return Promise.resolve({ probe: true });
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The handler succeeded: the dependency answers again, so every waiting delivery goes. */
  succeeded(): void {
    if (!this.paused) return;
    this.paused = false;
    this.probeDue = false;
    clearTimeout(this.timer);
    this.reopened = { at: Date.now(), failures: this.failures };
    const released = this.waiting.splice(0);
    this.events.resumed(Date.now() - this.pausedAt, released.length);
    for (const resolve of released) resolve({ probe: false });
  }

  /** The handler failed transiently: pause, or (the probe failed) wait longer before the next probe. */
  failedTransiently(turn: Turn): void {
    if (this.closed) return;
    if (!this.paused) {
      this.paused = true;
      this.pausedAt = Date.now();
      // A relapse soon after reopening (a success that never touched the dependency) keeps the backoff it had.
      const relapse = Date.now() - this.reopened.at < this.backoff.maxMs;
      this.failures = relapse ? this.reopened.failures + 1 : 1;
      this.events.paused(this.schedule());
      return;
    }
    // A handler that started before the pause failing too says nothing new; the probe's failure does.
    if (!turn.probe) return;
    this.failures += 1;
    this.events.probing(this.failures, this.schedule());
  }

  /** The turn was not used for a verdict on the dependency (abandoned, or a permanent failure): pass it on. */
  passOn(turn: Turn): void {
    if (turn.probe && this.paused) this.releaseProbe();
  }

  /** Lets go of every waiting delivery without running it (the channel is gone, or the consumer stops). */
  abandonWaiting(): void {
    for (const resolve of this.waiting.splice(0)) resolve(undefined);
    // The next delivery to arrive runs as the probe at once, when its time had come.
  }

  /** Stops the probe timer and lets go of every waiting delivery. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.abandonWaiting();
  }

  private schedule(): number {
    clearTimeout(this.timer);
    const delay = backoffDelay(this.failures, this.backoff);
    this.timer = setTimeout(() => this.releaseProbe(), delay);
    return delay;
  }

  private releaseProbe(): void {
    const next = this.waiting.shift();
    if (next) next({ probe: true });
    else this.probeDue = true;
  }
}
