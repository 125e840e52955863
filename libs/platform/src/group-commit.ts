import type { Logger } from './logger';
import { isTransientFailure } from './transient-failure';

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface GroupCommitOptions {
  /** Name in the logs. */
  name: string;
  logger: Logger;
  /** Largest group applied at once. */
  maxBatch?: number;
  /** Groups applied at the same time. */
  concurrency?: number;
}

/**
 * Gathers the items that arrive while earlier ones are being applied and applies them together (one
 * transaction, a few statements); alone, an item goes at once, so a quiet service adds no latency. Each
 * submitter hears back only once its group committed (so a consumer acks after the commit). A group that fails
 * is applied again item by item, so one bad item fails (and is retried or dead-lettered) alone; a group that
 * failed transiently (the dependency unavailable) fails whole, and its consumers wait the outage out.
 */
export class GroupCommit<T> {
  private queue: Array<Waiting<T>> = [];
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly concurrency: number;

  constructor(
    private readonly apply: (items: T[]) => Promise<void>,
    private readonly options: GroupCommitOptions,
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.concurrency = options.concurrency ?? 2;
  }

  submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.flush();
      });
    }
  }

  private async run(batch: Array<Waiting<T>>): Promise<void> {
    try {
      await this.apply(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
      return;
    } catch (err) {
      // A group that failed because the database (or another dependency) is away fails whole: applying its
      // items one by one would only fail each of them again against the same outage.
      if (batch.length === 1 || isTransientFailure(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      this.options.logger.warn(`${this.options.name}: group failed, applying its items one by one`, {
        items: batch.length,
        error: (err as Error).message,
      });
    }
    for (const w of batch) await this.apply([w.item]).then(w.resolve, w.reject);
  }
}
