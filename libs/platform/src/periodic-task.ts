import type { Logger } from './logger';

/** Runs a pass every interval (never two at once) until stopped; a failing pass is logged and retried. */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

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

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .then(() => undefined)
        .catch((err: unknown) => {
          this.logger.warn(`${this.name} pass failed`, { error: (err as Error).message });
        })
        .finally(() => this.schedule());
    }, this.intervalMs);
  }
}
