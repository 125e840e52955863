import type { IngressDeps } from './ingress-deps';
import { processInboundEvent } from './process-inbound-event.use-case';

const BATCH = 8;
// Bounds one pass, so a stream of failing events cannot keep it from yielding.
const MAX_BATCHES = 50;

async function processOrPostpone(deps: IngressDeps, id: string): Promise<boolean> {
  try {
    return (await processInboundEvent(deps, id, 'pending')) !== undefined;
  } catch (err) {
    const error = (err as Error).message;
    deps.logger.warn('inbound event not split, will retry', { event_id: id, error });
    await deps.events.recordFailure(id, error).catch(() => undefined);
    return false;
  }
}

/**
 * The worker's pass: splits stored events still pending, a few at a time. The audit row is the queue, so an
 * event stored by a process that died before splitting it is split by the next pass of any replica.
 */
export async function processPendingEvents(deps: IngressDeps): Promise<number> {
  let done = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const ids = await deps.events.dueIds(BATCH);
    const results = await Promise.all(ids.map((id) => processOrPostpone(deps, id)));
    done += results.filter(Boolean).length;
    // Nothing more due, or nothing this batch could take (held by other workers, or failing).
    if (ids.length < BATCH || !results.some(Boolean)) break;
  }
  return done;
}
