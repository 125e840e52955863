import type { InboundStatusItem } from '@bm/contracts';
import { currentTraceparent } from '@bm/platform';
import { applyStatusReports, type StatusReport } from './apply-status-report.use-case';
import type { MessagingDeps } from './messaging-deps';

interface Waiting {
  report: StatusReport;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 500;
const MAX_IN_FLIGHT = 2;

/**
 * Gathers the receipts that arrive while earlier ones are being applied and applies them together
 * (applyStatusReports: one transaction and a few statements per batch). Alone, a receipt goes at once, so a
 * quiet service adds no latency. Each receipt is acknowledged only once its batch committed; a batch that fails
 * is applied again receipt by receipt, so one bad receipt fails (and is retried) alone.
 */
export class StatusReportBatcher {
  private queue: Waiting[] = [];
  private inFlight = 0;

  constructor(private readonly deps: MessagingDeps) {}

  submit(item: InboundStatusItem): Promise<void> {
    return new Promise((resolve, reject) => {
      // Each receipt keeps the trace of the message that brought it, whichever batch applies it.
      this.queue.push({ report: { item, traceparent: currentTraceparent() }, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight += 1;
      void this.apply(batch).finally(() => {
        this.inFlight -= 1;
        this.flush();
      });
    }
  }

  private async apply(batch: Waiting[]): Promise<void> {
    try {
      await applyStatusReports(
        this.deps,
        batch.map((w) => w.report),
      );
      for (const w of batch) w.resolve();
      return;
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      this.deps.logger.warn('status batch failed, applying its receipts one by one', {
        receipts: batch.length,
        error: (err as Error).message,
      });
    }
    for (const w of batch) {
      await applyStatusReports(this.deps, [w.report]).then(w.resolve, w.reject);
    }
  }
}
