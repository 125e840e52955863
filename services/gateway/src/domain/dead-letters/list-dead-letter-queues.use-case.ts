import { CONSUMER_QUEUES, type ConsumerQueueName, type DeadLetterQueueDto } from '@bm/contracts';
import type { GatewayDeps } from '../gateway-deps';

/** Every consumer queue with the number of messages parked in its dead-letter queue. */
export async function listDeadLetterQueues(
  deps: Pick<GatewayDeps, 'deadLetters'>,
): Promise<{ queues: DeadLetterQueueDto[] }> {
  const names = Object.keys(CONSUMER_QUEUES) as ConsumerQueueName[];
  const counts = await Promise.all(names.map((queue) => deps.deadLetters.count(queue)));
  return {
    queues: names.map((queue, i) => ({
      queue,
      service: CONSUMER_QUEUES[queue].service,
      dead_letters: counts[i],
    })),
  };
}
