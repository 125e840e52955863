import type { MessagingDeps } from '../messaging-deps';
import type { ReportCursor } from '../ports/status-report.port';
import type { ChangeStatusDeps } from '../statuses/change-status';
import { applyPendingReports } from '../statuses/apply-status-report.use-case';

/** Kept reports one pass reads at most: its cost stays flat however many are kept. */
const REPORTS_PER_PASS = 5_000;

/**
 * How far before the last check the next one starts: a report is stamped with its transaction's start, and that
 * transaction (a batch of receipts: a few statements, each under the statement timeout) may commit after a check.
 */
const REPORT_TRANSACTION_MARGIN_MS = 2 * 60 * 1000;

/** Where each service's next pass starts reading (none yet: from the first report kept). */
const cursors = new WeakMap<object, ReportCursor>();

/**
 * Sweeps reports whose message got its provider id in a transaction that raced theirs. Such a race leaves a
 * report that arrived around the time its message was sent, so a pass reads only the reports that arrived since
 * the previous one (less a margin); after a start it walks through those kept, a bounded slice per pass.
 */
export async function applyOrphanedReports(
  deps: ChangeStatusDeps & Pick<MessagingDeps, 'unitOfWork' | 'statusReports' | 'reader' | 'rateCard'>,
): Promise<number> {
  const { ids, next, checkedAt } = await deps.statusReports.messagesWithOrphanedReports(
    cursors.get(deps.statusReports) ?? null,
    REPORTS_PER_PASS,
  );
  for (const id of ids) {
    await deps.unitOfWork.inTransaction(async (tx) => {
      const message = await deps.reader.findById(tx, id, { lock: true });
      if (message) await applyPendingReports(deps, tx, message);
    });
  }
  cursors.set(
    deps.statusReports,
    next ?? { at: new Date(checkedAt.getTime() - REPORT_TRANSACTION_MARGIN_MS), providerMessageId: '' },
  );
  return ids.length;
}
