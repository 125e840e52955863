import type { DeadLettersReplayedDto } from '@bm/contracts';
import type { GatewayDeps } from '../gateway-deps';
import { requireQueue } from './consumer-queue';

/**
 * Puts up to `limit` parked messages back in their consumer's queue with a fresh attempt count. The consumers are
 * idempotent, so a message whose effect had been applied after all changes nothing the second time.
 */
export async function replayDeadLetters(
  deps: Pick<GatewayDeps, 'deadLetters'>,
  queue: string,
  limit: number,
): Promise<DeadLettersReplayedDto> {
  const name = requireQueue(queue);
  return { queue: name, ...(await deps.deadLetters.replay(name, limit)) };
}
