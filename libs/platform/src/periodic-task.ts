import type { Logger } from './logger';

/** Runs a pass every interval (never two at once) until stopped; a failing pass is logged and retried. */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private busy = false;
  private wokenWhileBusy = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs a pass now instead of at the next tick (or right after the current one); many wakes make one pass. */
  wake(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.wokenWhileBusy = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.busy = true;
      this.wokenWhileBusy = false;
      this.running = this.pass()
        .then(() => undefined)
        .catch((err: unknown) => {
          this.logger.warn(`${this.name} pass failed`, { error: (err as Error).message });
        })
        .finally(() => {
          this.busy = false;
          this.schedule(this.wokenWhileBusy ? 0 : this.intervalMs);
        });
    }, delayMs);
  }
}
