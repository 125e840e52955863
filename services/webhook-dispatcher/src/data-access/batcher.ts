interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: Error) => void;
}

/**
 * Gathers items submitted together (up to `maxBatch`, or what came within `maxWaitMs`) and handles them with one
 * call, typically one SQL statement instead of one per item; each submitter gets its own item's result.
 */
export class Batcher<T, R> {
  private waiting: Array<Waiting<T, R>> = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly handle: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 100,
    private readonly maxWaitMs = 5,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.waiting.length >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.handle(batch.map((w) => w.item)).then(
      (results) => batch.forEach((w, i) => w.resolve(results[i])),
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        batch.forEach((w) => w.reject(error));
      },
    );
  }
}
