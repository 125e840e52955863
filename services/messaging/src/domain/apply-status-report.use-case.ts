import { queryRows } from '@bm/platform';
import type { InboundStatusItem, MessageStatus } from '@bm/contracts';
import type { EntityManager } from 'typeorm';
import type { MessageLog } from '../data-access/message-log.repository';
import { describeFailure } from '../data-access/upstream/upstream-errors';
import { changeStatus, type StatusChange } from './change-status';
import type { MessagingDeps } from './messaging-deps';

type Report = Pick<InboundStatusItem, 'status' | 'errors' | 'occurred_at'>;

function toChange(report: Report): StatusChange | undefined {
  if (report.status === 'played') return undefined;
  const at = new Date(report.occurred_at);
  if (report.status !== 'failed') return { status: report.status as MessageStatus, at };
  const error = report.errors[0];
  return {
    status: 'failed',
    at,
    errorCode: error?.code ?? null,
    errorMessage: describeFailure(
      error?.code ?? null,
      error?.details || error?.message || error?.title || 'delivery failed',
    ),
  };
}

/**
 * A delivery receipt from the upstream: applied by the status rules, or kept until the send records the
 * provider message id when it overtook the send's answer.
 */
export async function applyStatusReport(deps: MessagingDeps, item: InboundStatusItem): Promise<void> {
  await deps.dataSource.transaction(async (tx) => {
    const message = await deps.messages.findByProviderId(tx, item.provider_message_id, { lock: true });
    if (!message) {
      await tx.query(
        `INSERT INTO messaging.pending_status_reports (provider_message_id, status, report)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [item.provider_message_id, item.status, JSON.stringify(item)],
      );
      return;
    }
    const change = toChange(item);
    if (change) await changeStatus(deps, tx, message, change);
  });
}

const ORDER = ['sent', 'delivered', 'read', 'failed', 'played'];

/** Applies the reports that arrived before this message's provider id was known, in status order. */
export async function applyPendingReports(
  deps: MessagingDeps,
  tx: EntityManager,
  message: MessageLog,
): Promise<void> {
  if (!message.providerMessageId) return;
  const rows = await queryRows<{ status: string; report: Report }>(
    tx,
    'DELETE FROM messaging.pending_status_reports WHERE provider_message_id = $1 RETURNING status, report',
    [message.providerMessageId],
  );
  let current = message;
  for (const row of rows.sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status))) {
    const change = toChange(row.report);
    if (!change) continue;
    current = (await changeStatus(deps, tx, current, change)) ?? current;
  }
}

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
