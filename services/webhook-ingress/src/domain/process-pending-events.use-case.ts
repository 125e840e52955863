import { isTransientFailure } from '@bm/platform';
import type { PendingBody } from './inbound-event';
import type { IngressDeps } from './ingress-deps';
import {
  countSkipped,
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

/**
 * Splits one event; a failure is recorded on it and retried later with backoff. One that will not change on retry
 * (not an outage) counts toward giving the event up: at INGRESS_FAIL_AFTER_ATTEMPTS it is marked `failed` in the
 * audit log, counted, and no longer tried, so it cannot cost every pass a retry for ever.
 */
async function processOrPostpone(deps: IngressDeps, id: string): Promise<boolean> {
  try {
    return (await processInboundEvent(deps, id, 'pending')) !== undefined;
  } catch (err) {
    const error = (err as Error).message;
    const permanent = !isTransientFailure(err);
    const outcome = await deps.events
      .recordFailure(id, error, permanent, deps.config.INGRESS_FAIL_AFTER_ATTEMPTS)
      .catch(() => undefined);
    if (outcome === 'failed') {
      deps.metrics.failedEvents.inc();
      deps.logger.error('inbound event given up: splitting it keeps failing the same way', {
        event_id: id,
        error,
      });
    } else deps.logger.warn('inbound event not split, will retry', { event_id: id, error, permanent });
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
  const done = await deps.unitOfWork.transaction(async (tx) => {
    // Events another worker holds, or split since they were read, are left to it.
    const locked = await deps.events.lockPending(
      tx,
      events.map((e) => e.id),
    );
    const mine = events.filter((e) => locked.has(e.id));
    return { mine, summaries: await publishSplitEvents(deps, tx, mine, owners) };
  });
  done.summaries.forEach((summary, i) => countSkipped(deps, summary, done.mine[i].replacedTexts));
  return done.mine.length;
}

/**
 * The worker's pass: splits stored events still pending, a batch at a time. The audit row is the queue, so an
 * event stored by a process that died before splitting it is split by the next pass of any replica. A batch
 * that fails is split again event by event, so one event that cannot be split (or a number messaging cannot
 * answer for) holds back only itself, retried later with backoff; within an event, items are isolated the same
 * way (see processInboundEvent).
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
