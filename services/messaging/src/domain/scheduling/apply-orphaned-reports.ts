import { messagesWithOrphanedReports } from '../../data-access/status-report.repository';
import type { MessagingDeps } from '../messaging-deps';
import { applyPendingReports } from '../statuses/apply-status-report.use-case';

/**
 * How far before the last check the next one starts: a report is stamped with its transaction's start, and that
 * transaction (a batch of receipts: a few statements, each under the statement timeout) may commit after a check.
 */
const REPORT_TRANSACTION_MARGIN_MS = 2 * 60 * 1000;

/** Each service's last complete check, so a pass reads only the reports that arrived since (the first reads all). */
const lastChecks = new WeakMap<MessagingDeps, Date>();

/**
 * Sweeps reports whose message got its provider id in a transaction that raced theirs. Such a race leaves a
 * report that arrived around the time its message was sent, so a pass looks only at reports that arrived since
 * the previous one (less a margin): its cost follows the recent reports, not all that are kept.
 */
export async function applyOrphanedReports(deps: MessagingDeps): Promise<number> {
  const last = lastChecks.get(deps);
  const since = last ? new Date(last.getTime() - REPORT_TRANSACTION_MARGIN_MS) : null;
  const { ids, checkedAt } = await messagesWithOrphanedReports(deps.dataSource, since);
  for (const id of ids) {
    await deps.dataSource.transaction(async (tx) => {
      const message = await deps.messages.findById(tx, id, { lock: true });
      if (message) await applyPendingReports(deps, tx, message);
    });
  }
  // A full batch may have left others behind: the next pass starts from the same point.
  if (ids.length < 100) lastChecks.set(deps, checkedAt);
  return ids.length;
}
