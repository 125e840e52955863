import { currentTraceparent } from '@bm/platform';
import { deliverMessages } from './deliver-message.use-case';
import type { MessagingDeps } from '../messaging-deps';
import type { ThroughputLimiter } from './throughput-limiter';

interface Waiting {
  id: number;
  /** The trace of the message's delivery: each message of a batch keeps its own. */
  traceparent: string | undefined;
  done: (err?: unknown) => void;
}

/**
 * Gathers messages to deliver that arrive together (up to `maxBatch`, or what came within `maxWaitMs`) and sends
 * them as one batch: two statements per batch instead of two per message. At most `maxInFlight` messages are
 * being delivered at once (a delivery command may carry hundreds); the rest wait their turn unclaimed. Each
 * submitter hears back once its message's batch is recorded.
 */
export class DeliveryBatcher {
  private waiting: Waiting[] = [];
  private timer?: NodeJS.Timeout;
  private inFlight = 0;

  constructor(
    private readonly deps: MessagingDeps,
    private readonly limiter: ThroughputLimiter,
    private readonly maxBatch = 100,
    private readonly maxInFlight = 200,
    private readonly maxWaitMs = 5,
  ) {}

  submit(id: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({
        id,
        traceparent: currentTraceparent(),
        done: (err) =>
          err === undefined ? resolve() : reject(err instanceof Error ? err : new Error('delivery failed')),
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.waiting.length >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.waiting.length > 0 && this.inFlight < this.maxInFlight) {
      const batch = this.waiting.splice(0, Math.min(this.maxBatch, this.maxInFlight - this.inFlight));
      this.inFlight += batch.length;
      const traces = new Map(batch.map((w) => [w.id, w.traceparent]));
      deliverMessages(this.deps, this.limiter, [...traces.keys()], (id) => traces.get(id))
        .then(
          () => batch.forEach((w) => w.done()),
          (err: unknown) => batch.forEach((w) => w.done(err)),
        )
        .finally(() => {
          this.inFlight -= batch.length;
          if (this.waiting.length > 0) this.schedule();
        });
    }
  }
}
