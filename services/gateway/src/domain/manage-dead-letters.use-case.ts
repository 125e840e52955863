import {
  CONSUMER_QUEUES,
  type ConsumerQueueName,
  type DeadLetterQueueDto,
  type DeadLettersDto,
  type DeadLettersReplayedDto,
} from '@bm/contracts';
import { AppError, type DeadLetterQueues } from '@bm/platform';

/** The operator names a consumer queue by its logical name (`messaging.inbound`), never the broker's. */
function requireQueue(queue: string): ConsumerQueueName {
  if (!Object.hasOwn(CONSUMER_QUEUES, queue)) throw new AppError('QUEUE_NOT_FOUND');
  return queue as ConsumerQueueName;
}

/** Every consumer queue with the number of messages parked in its dead-letter queue. */
export async function listDeadLetterQueues(
  dlqs: DeadLetterQueues,
): Promise<{ queues: DeadLetterQueueDto[] }> {
  const names = Object.keys(CONSUMER_QUEUES) as ConsumerQueueName[];
  const counts = await Promise.all(names.map((queue) => dlqs.count(queue)));
  return {
    queues: names.map((queue, i) => ({
      queue,
      service: CONSUMER_QUEUES[queue].service,
      dead_letters: counts[i],
    })),
  };
}

/** The first `limit` messages parked for one consumer, with why they failed; they stay parked. */
export async function showDeadLetters(
  dlqs: DeadLetterQueues,
  queue: string,
  limit: number,
): Promise<DeadLettersDto> {
  const name = requireQueue(queue);
  const messages = await dlqs.peek(name, limit);
  return {
    queue: name,
    service: CONSUMER_QUEUES[name].service,
    dead_letters: await dlqs.count(name),
    messages,
  };
}

/**
 * Puts up to `limit` parked messages back in their consumer's queue with a fresh attempt count. The consumers are
 * idempotent, so a message whose effect had been applied after all changes nothing the second time.
 */
export async function replayDeadLetters(
  dlqs: DeadLetterQueues,
  queue: string,
  limit: number,
): Promise<DeadLettersReplayedDto> {
  const name = requireQueue(queue);
  return { queue: name, ...(await dlqs.replay(name, limit)) };
}
