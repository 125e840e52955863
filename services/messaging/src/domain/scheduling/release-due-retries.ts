import type { MessagingDeps } from '../messaging-deps';

/** Retries whose backoff is over (a transient upstream failure) go back to a worker. */
export async function releaseDueRetries(
  deps: Pick<MessagingDeps, 'unitOfWork' | 'sweeps' | 'outbox'>,
): Promise<number> {
  return deps.unitOfWork.inTransaction(async (tx) => {
    const ids = await deps.sweeps.takeDueRetries(tx);
    await deps.outbox.deliver(
      tx,
      ids.map((id) => ({ id })),
    );
    return ids.length;
  });
}
