import { CONSUMER_QUEUES, type DeadLettersDto } from '@bm/contracts';
import type { GatewayDeps } from '../gateway-deps';
import { requireQueue } from './consumer-queue';

/** The first `limit` messages parked for one consumer, with why they failed; they stay parked. */
export async function showDeadLetters(
  deps: Pick<GatewayDeps, 'deadLetters'>,
  queue: string,
  limit: number,
): Promise<DeadLettersDto> {
  const name = requireQueue(queue);
  const messages = await deps.deadLetters.peek(name, limit);
  return {
    queue: name,
    service: CONSUMER_QUEUES[name].service,
    dead_letters: await deps.deadLetters.count(name),
    messages,
  };
}
