import type { MessagingDeps } from '../messaging-deps';

/**
 * A queued message whose delivery command was lost (dead-lettered while the database was away, say) would wait
 * for ever: after STRANDED_AFTER_MS without progress it gets a new command. A duplicate command is harmless,
 * the claim lets only one through.
 */
export async function requeueStrandedMessages(
  deps: Pick<MessagingDeps, 'unitOfWork' | 'sweeps' | 'outbox' | 'config' | 'logger'>,
): Promise<number> {
  return deps.unitOfWork.inTransaction(async (tx) => {
    const ids = await deps.sweeps.touchStranded(tx, deps.config.STRANDED_AFTER_MS);
    for (const id of ids) await deps.outbox.deliver(tx, id);
    if (ids.length > 0)
      deps.logger.warn('queued messages without a delivery command requeued', { count: ids.length });
    return ids.length;
  });
}
