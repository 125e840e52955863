import type { DataSource } from 'typeorm';
import { currentTraceparent, GroupCommit } from '@bm/platform';
import type {
  InsertOptions,
  MessageLog,
  MessageLogRepository,
  NewMessageLog,
} from './message-log.repository';

/**
 * Group commit for the send path: inserts that arrive while earlier ones are on their way to PostgreSQL are
 * written together in one statement. Alone, an insert goes at once, so a quiet service adds no latency.
 */
export class MessageLogWriter {
  readonly inserts: GroupCommit<{ message: NewMessageLog } & InsertOptions, MessageLog | undefined>;

  constructor(messages: MessageLogRepository, dataSource: DataSource) {
    // A failed statement fails its sends whole: each request answers its own error and may be sent again.
    this.inserts = new GroupCommit((items) => messages.insertMany(dataSource, items), {
      name: 'message log inserts',
      maxBatch: 200,
      concurrency: 4,
      onFailure: 'all',
    });
  }

  insert(message: NewMessageLog, options: InsertOptions): Promise<MessageLog | undefined> {
    // Taken now: the batch is written from whichever request's context flushes it.
    return this.inserts.submit({ message, traceparent: currentTraceparent(), ...options });
  }
}
