import type { DataSource } from 'typeorm';
import { currentTraceparent } from '@bm/platform';
import type {
  InsertOptions,
  MessageLog,
  MessageLogRepository,
  NewMessageLog,
} from './message-log.repository';

interface Pending {
  item: { message: NewMessageLog } & InsertOptions;
  resolve: (m: MessageLog | undefined) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 200;
const MAX_IN_FLIGHT = 4;

/**
 * Group commit for the send path: inserts that arrive while earlier ones are on their way to PostgreSQL are
 * written together in one statement. Alone, an insert goes at once, so a quiet service adds no latency.
 */
export class MessageLogWriter {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly messages: MessageLogRepository,
    private readonly dataSource: DataSource,
  ) {}

  insert(message: NewMessageLog, options: InsertOptions): Promise<MessageLog | undefined> {
    return new Promise((resolve, reject) => {
      // Taken now: the batch is written from whichever request's context flushes it.
      this.queue.push({ item: { message, traceparent: currentTraceparent(), ...options }, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight += 1;
      this.messages
        .insertMany(
          this.dataSource,
          batch.map((p) => p.item),
        )
        .then(
          (rows) => batch.forEach((p, i) => p.resolve(rows[i])),
          (err: unknown) => batch.forEach((p) => p.reject(err)),
        )
        .finally(() => {
          this.inFlight -= 1;
          this.flush();
        });
    }
  }
}
