import type { ConsumerQueueName, DeadLetterDto } from '@bm/contracts';

/** The dead-letter queue of each consumer queue, named by its logical name (`messaging.inbound`). */
export interface DeadLetters {
  count(queue: ConsumerQueueName): Promise<number>;
  /** The first `limit` parked messages, left parked. */
  peek(queue: ConsumerQueueName, limit: number): Promise<DeadLetterDto[]>;
  /** Puts up to `limit` parked messages back in their consumer's queue with a fresh attempt count. */
  replay(queue: ConsumerQueueName, limit: number): Promise<{ replayed: number; remaining: number }>;
}
