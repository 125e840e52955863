import type { WakeGate } from './db/wake-gate';
import type { Logger } from './logger';

export interface PeriodicTaskOptions {
  /**
   * Longest pause while passes find nothing: it doubles from the interval up to this, and returns to the interval
   * after a pass that found work or a `wake()`. Default: the interval (no back-off).
   */
  idleIntervalMs?: number;
  /**
   * Notifications of new work: once a pass finds nothing the task holds the gate and sleeps the whole idle
   * interval (a safety poll), woken by the gate's notifications.
   */
  gate?: WakeGate;
  /** When the earliest work already stored falls due, asked after each pass: the task runs then. */
  nextDueAt?: () => Promise<Date | null | undefined>;
}

/** A pass found work when it answers a positive count or true. */
function foundWork(result: unknown): boolean {
  return result === true || (typeof result === 'number' && result > 0);
}

/**
 * Runs a pass every interval (never two at once) until stopped; a failing pass is logged and retried. Optionally
 * slower while idle (see `PeriodicTaskOptions`), and at once on `wake()` or at the time given to `wakeAt()`.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private running?: Promise<void>;
  private stopped = true;
  private busy = false;
  private wokenWhileBusy = false;
  private dueWhileBusy = Infinity;
  private wakesRegistered = false;
  private pauseMs: number;
  private readonly idleIntervalMs: number;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
    private readonly logger: Logger,
    private readonly options: PeriodicTaskOptions = {},
  ) {
    this.pauseMs = intervalMs;
    this.idleIntervalMs = Math.max(intervalMs, options.idleIntervalMs ?? intervalMs);
  }

  /** Starts the passes; with a gate, its notifications wake the task from then on. */
  start(): void {
    this.stopped = false;
    if (!this.wakesRegistered) this.options.gate?.onWake(() => this.wake());
    this.wakesRegistered = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs a pass now instead of at the next tick (or right after the current one); many wakes make one pass. */
  wake(): void {
    if (this.stopped) return;
    this.pauseMs = this.intervalMs;
    if (this.busy) {
      this.wokenWhileBusy = true;
      return;
    }
    this.schedule(0);
  }

  /** Runs a pass at `at` unless one is planned before then. */
  wakeAt(at: Date): void {
    if (this.stopped) return;
    if (this.busy) {
      this.dueWhileBusy = Math.min(this.dueWhileBusy, at.getTime());
      return;
    }
    if (at.getTime() < this.timerAt) this.schedule(Math.max(0, at.getTime() - Date.now()));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timerAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timerAt = Infinity;
      this.busy = true;
      this.wokenWhileBusy = false;
      this.running = this.runPass().finally(() => (this.busy = false));
    }, delayMs);
  }

  private async runPass(): Promise<void> {
    let worked = false;
    try {
      worked = foundWork(await this.pass());
    } catch (err) {
      this.logger.warn(`${this.name} pass failed`, { error: (err as Error).message });
    }
    let delay: number;
    try {
      const pause = await this.nextPause(worked);
      // Stored work due sooner matters only when the task would sleep past its interval.
      delay = pause > this.intervalMs ? Math.min(pause, await this.untilDue()) : pause;
    } catch (err) {
      this.logger.warn(`${this.name} could not plan its next pass`, { error: (err as Error).message });
      delay = this.intervalMs;
    }
    this.busy = false;
    const dueMs = this.dueWhileBusy - Date.now();
    this.dueWhileBusy = Infinity;
    this.schedule(this.wokenWhileBusy ? 0 : Math.max(0, Math.min(delay, dueMs)));
  }

  private async nextPause(worked: boolean): Promise<number> {
    const gate = this.options.gate;
    if (worked) {
      this.pauseMs = this.intervalMs;
      await gate?.release();
      return this.intervalMs;
    }
    if (gate && !gate.held) {
      // A pass made holding the gate sees every write that did not notify: run it now, then sleep.
      if (await gate.hold()) return 0;
    }
    if (gate?.held) return this.idleIntervalMs;
    const pause = this.pauseMs;
    this.pauseMs = Math.min(this.pauseMs * 2, this.idleIntervalMs);
    return pause;
  }

  private async untilDue(): Promise<number> {
    const due = await this.options.nextDueAt?.();
    return due ? Math.max(0, due.getTime() - Date.now()) : Infinity;
  }
}
