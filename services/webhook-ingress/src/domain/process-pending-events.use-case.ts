import type { PendingBody } from '../data-access/inbound-event.repository';
import type { IngressDeps } from './ingress-deps';
import {
  ownersOf,
  processInboundEvent,
  publishSplitEvents,
  splitStoredBody,
} from './process-inbound-event.use-case';

// Events split together in one transaction, and the most body text read for one batch.
const BATCH = 100;
const BATCH_BYTES = 4 * 1024 * 1024;
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

/** Splits a batch of events in one transaction: a few statements for the batch instead of a few per event. */
async function splitBatch(deps: IngressDeps, due: PendingBody[]): Promise<number> {
  const events = due.map((e) => ({ id: e.id, ...splitStoredBody(e.rawBody, e.receivedAt) }));
  const owners = await ownersOf(
    deps,
    events.flatMap((e) => e.items),
  );
  return deps.dataSource.transaction(async (tx) => {
    // Events another worker holds, or split since they were read, are left to it.
    const locked = await deps.events.lockPending(
      tx,
      events.map((e) => e.id),
    );
    const mine = events.filter((e) => locked.has(e.id));
    await publishSplitEvents(deps, tx, mine, owners);
    return mine.length;
  });
}

/**
 * The worker's pass: splits stored events still pending, a batch at a time. The audit row is the queue, so an
 * event stored by a process that died before splitting it is split by the next pass of any replica. A batch
 * that fails is split again event by event, so one event that cannot be split (or a number messaging cannot
 * answer for) holds back only itself, retried later with backoff.
 */
export async function processPendingEvents(deps: IngressDeps): Promise<number> {
  let done = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const due = await deps.events.dueWithBodies(BATCH, BATCH_BYTES);
    if (due.length === 0) break;
    let taken: number;
    try {
      taken = await splitBatch(deps, due);
    } catch (err) {
      deps.logger.warn('inbound batch not split, splitting its events one by one', {
        events: due.length,
        error: (err as Error).message,
      });
      const results = await Promise.all(due.map((e) => processOrPostpone(deps, e.id)));
      taken = results.filter(Boolean).length;
    }
    done += taken;
    // Nothing this batch could take (held by other workers, or failing).
    if (taken === 0) break;
  }
  return done;
}
