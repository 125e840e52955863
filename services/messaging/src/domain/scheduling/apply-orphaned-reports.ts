import { applyPendingReports } from '../statuses/apply-status-report.use-case';
import type { MessagingDeps } from '../messaging-deps';

/** Sweeps reports whose message got its provider id in a transaction that raced theirs. */
export async function applyOrphanedReports(deps: MessagingDeps): Promise<number> {
  const rows: Array<{ id: string }> = await deps.dataSource.query(
    `SELECT DISTINCT m.id FROM messaging.pending_status_reports p
       JOIN messaging.message_logs m ON m.provider_message_id = p.provider_message_id LIMIT 100`,
  );
  for (const row of rows) {
    await deps.dataSource.transaction(async (tx) => {
      const message = await deps.messages.findById(tx, Number(row.id), { lock: true });
      if (message) await applyPendingReports(deps, tx, message);
    });
  }
  return rows.length;
}
