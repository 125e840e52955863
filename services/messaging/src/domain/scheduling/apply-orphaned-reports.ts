import { messagesWithOrphanedReports } from '../../data-access/status-report.repository';
import type { MessagingDeps } from '../messaging-deps';
import { applyPendingReports } from '../statuses/apply-status-report.use-case';

/** Sweeps reports whose message got its provider id in a transaction that raced theirs. */
export async function applyOrphanedReports(deps: MessagingDeps): Promise<number> {
  const ids = await messagesWithOrphanedReports(deps.dataSource);
  for (const id of ids) {
    await deps.dataSource.transaction(async (tx) => {
      const message = await deps.messages.findById(tx, id, { lock: true });
      if (message) await applyPendingReports(deps, tx, message);
    });
  }
  return ids.length;
}
