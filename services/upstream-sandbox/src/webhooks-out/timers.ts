/**
 * The sandbox's pending work (status reports, retries) as cancellable sleeps and aborts. Resetting the state
 * starts a new epoch: work begun before notices and stops instead of reporting into the new state.
 */
export class Timers {
  private pending = new Map<NodeJS.Timeout, (completed: boolean) => void>();
  private controller = new AbortController();
  private stopped = false;
  epoch = 0;

  /** Resolves true after the time, false when cancelled first. */
  sleep(ms: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve(true);
      }, ms);
      this.pending.set(timer, resolve);
    });
  }

  /** Aborted when the epoch ends, so in-flight webhook requests stop too. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  cancelAll(): void {
    this.epoch += 1;
    this.controller.abort();
    this.controller = new AbortController();
    for (const [timer, resolve] of this.pending) {
      clearTimeout(timer);
      resolve(false);
    }
    this.pending.clear();
  }

  stop(): void {
    this.stopped = true;
    this.cancelAll();
  }
}
