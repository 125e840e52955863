import { enqueueDelivery } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';

/** Retries whose backoff is over (a transient upstream failure) go back to a worker. */
export async function releaseDueRetries(deps: MessagingDeps): Promise<number> {
  return deps.dataSource.transaction(async (tx) => {
    const ids = await deps.sweeps.takeDueRetries(tx);
    for (const id of ids) await enqueueDelivery(tx, id);
    return ids.length;
  });
}
