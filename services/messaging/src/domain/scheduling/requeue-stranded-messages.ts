import type { MessagingDeps } from '../messaging-deps';

/**
 * A queued message whose delivery command was lost (dead-lettered while the database was away, say) would wait
 * for ever: it gets a new command once it has not moved for STRANDED_AFTER_MS since the delivery queue was last
 * seen drained. Commands that only wait behind a backlog (after an outage, every queued message's command is in the
 * queue) are not lost, and a new command each sweep would only lengthen the backlog they wait behind: a message is
 * stranded when its command has left the queue and no worker claimed it. A duplicate command is harmless, the
 * claim lets only one through.
 */
export async function requeueStrandedMessages(
  deps: Pick<MessagingDeps, 'unitOfWork' | 'sweeps' | 'deliveryQueue' | 'outbox' | 'config' | 'logger'>,
): Promise<number> {
  // The queue is looked at only when a message has waited that long (a read of the sweep's own index).
  const oldest = await deps.sweeps.oldestReady();
  if (!oldest || oldest.getTime() > Date.now() - deps.config.STRANDED_AFTER_MS) return 0;
  const drained = await deps.deliveryQueue.drainedThrough();
  const untouchedSince = drained && new Date(drained.getTime() - deps.config.STRANDED_AFTER_MS);
  if (!untouchedSince || oldest >= untouchedSince) return 0;
  return deps.unitOfWork.inTransaction(async (tx) => {
    const ids = await deps.sweeps.touchStranded(tx, untouchedSince);
    await deps.outbox.deliver(
      tx,
      ids.map((id) => ({ id })),
    );
    if (ids.length > 0)
      deps.logger.warn('queued messages without a delivery command requeued', { count: ids.length });
    return ids.length;
  });
}
