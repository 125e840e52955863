import { CONSUMER_QUEUES, type ConsumerQueueName } from '@bm/contracts';
import { AppError } from '@bm/platform';

/** The operator names a consumer queue by its logical name (`messaging.inbound`), never the broker's. */
export function requireQueue(queue: string): ConsumerQueueName {
  if (!Object.hasOwn(CONSUMER_QUEUES, queue)) throw new AppError('QUEUE_NOT_FOUND');
  return queue as ConsumerQueueName;
}
