import type { MessagingDeps } from '../messaging-deps';
import type { ChangeStatusDeps } from '../statuses/change-status';
import { applyPendingReports } from '../statuses/apply-status-report.use-case';

/** Sweeps reports whose message got its provider id in a transaction that raced theirs. */
export async function applyOrphanedReports(
  deps: ChangeStatusDeps & Pick<MessagingDeps, 'unitOfWork' | 'statusReports'>,
): Promise<number> {
  const ids = await deps.statusReports.messagesWithOrphanedReports();
  for (const id of ids) {
    await deps.unitOfWork.inTransaction(async (tx) => {
      const message = await deps.messages.findById(tx, id, { lock: true });
      if (message) await applyPendingReports(deps, tx, message);
    });
  }
  return ids.length;
}
