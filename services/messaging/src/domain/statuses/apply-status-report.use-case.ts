import { parseTraceparent, runInTrace } from '@bm/platform';
import { changeStatus, type ChangeStatusDeps } from './change-status';
import type { MessagingDeps } from '../messaging-deps';
import type { MessageLog, StatusEventToSend } from '../ports/message-log.port';
import type { AppliedStatusBatch } from '../ports/status-report.port';
import type { Tx } from '../ports/unit-of-work.port';
import {
  changeOf,
  inStatusOrder,
  planStatusReports,
  reportMarks,
  type ReportedMessages,
  type StatusReport,
} from '../lifecycle/status-reports';

export type ApplyStatusReportsDeps = ChangeStatusDeps &
  Pick<MessagingDeps, 'statusReports' | 'logger' | 'reader' | 'sendQueue' | 'rateCard'>;

/**
 * Delivery receipts from the upstream, a batch in the transaction that locked their messages (data access gathers
 * the batch and locks it): the status rules' plan of the batch (planStatusReports), written in a few statements.
 * Sends whose answer never came take the wamid a report of their attempt carries; reports naming no message of ours
 * wait for their wamid; sent, delivered and read reports move their messages forward in one statement per round;
 * a message that a report fails goes through the status rules one report at a time, in arrival order. Each status
 * event continues the trace of the send that created the message (the upstream's webhooks carry none).
 *
 * Answers what the batch does once it has committed: the status events of the forward moves and reconciled sends,
 * and those a repeated report sends again (until they are sent the batch's receipts stay unacknowledged, so the
 * broker's redelivery of a receipt is what makes its event durable); and how far each number's reports have come,
 * recorded only once the batch committed (a refuted attempt must not be one whose own report rolled back). The
 * other paths' events (a failure, reports kept for their wamid) are written to the outbox in the transaction.
 */
export async function applyStatusReports(
  deps: ApplyStatusReportsDeps,
  tx: Tx,
  reports: readonly StatusReport[],
  found: ReportedMessages,
): Promise<AppliedStatusBatch> {
  const plan = planStatusReports(reports, found, deps.rateCard);
  if (deps.logger.isDebugEnabled()) {
    const sends = new Map(found.locked.map((m) => [m.providerMessageId, m]));
    for (const { item, traceparent } of reports) {
      const send = sends.get(item.provider_message_id);
      if (send?.traceparent)
        deps.logger.debug('status receipt joins its send', {
          trace_id: parseTraceparent(send.traceparent)?.traceId,
          receipt_trace_id: parseTraceparent(traceparent)?.traceId,
          message_log_id: send.id,
          status: item.status,
        });
    }
  }
  for (const s of plan.superseded)
    deps.logger.info('status report of a superseded send attempt changes nothing', {
      message_log_id: s.messageLogId,
      attempt: s.attempt,
      status: s.status,
      report_status: s.reportStatus,
    });
  const reconciled = new Set((await deps.sendQueue.markSent(plan.reconciled, tx)).map((r) => r.message.id));
  for (const r of plan.reconciledBy) {
    // Worth an operator's eye only when the answer is lost for sure; a report merely overtaking it is common.
    const lost = r.startedAt === null || Date.now() - r.startedAt.getTime() > deps.config.UPSTREAM_TIMEOUT_MS;
    deps.logger[lost ? 'info' : 'debug']('send attempt reconciled from its status report', {
      message_log_id: r.messageLogId,
      attempt: r.attempt,
      report_status: r.reportStatus,
    });
  }
  await deps.statusReports.keepPendingReports(tx, plan.pending);
  const toSend: StatusEventToSend[] = [...plan.again, ...plan.reconciled.filter((r) => reconciled.has(r.id))];
  for (const moves of plan.rounds) toSend.push(...(await deps.statusReports.moveForward(tx, moves)));
  for (const { item, traceparent } of plan.oneByOne) {
    const message = await deps.reader.findByProviderId(tx, item.provider_message_id, { lock: true });
    const change = changeOf(item);
    if (message && change)
      await runInTrace(message.traceparent ?? traceparent, () => changeStatus(deps, tx, message, change));
  }
  await deps.statusReports.markReported(tx, plan.marks);
  return { events: toSend, reportedThrough: plan.reportedThrough };
}

/** Applies the reports that arrived before this message's provider id was known, in status order. */
export async function applyPendingReports(
  deps: ChangeStatusDeps & Pick<MessagingDeps, 'statusReports' | 'rateCard'>,
  tx: Tx,
  message: MessageLog,
): Promise<void> {
  const wamid = message.providerMessageId;
  if (!wamid) return;
  const kept = inStatusOrder(await deps.statusReports.takePendingReports<StatusReport['item']>(tx, wamid));
  let current = message;
  for (const { report } of kept) {
    const change = changeOf(report);
    if (change) current = (await changeStatus(deps, tx, current, change)) ?? current;
  }
  const items = kept.map(({ report }) => ({ item: { ...report, provider_message_id: wamid } }));
  await deps.statusReports.markReported(tx, reportMarks(deps.rateCard, items, [current]));
}
