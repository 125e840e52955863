import { costOf, parseTraceparent, runInTrace } from '@bm/platform';
import type { InboundStatusItem, MessageStatus } from '@bm/contracts';
import { changeStatus, statusEventFields, type ChangeStatusDeps, type StatusChange } from './change-status';
import { buildEvent } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';
import type { ForwardMove, MessageLog } from '../ports/message-log.port';
import type { ReportMark } from '../ports/status-report.port';
import type { Tx } from '../ports/unit-of-work.port';
import { attemptMessageIds, reconcileSendAttempts } from './reconcile-send-attempts';
import { attemptOf } from './send-attempt';
import { canMoveTo, describeFailure, recipientOf, statusesBefore } from '../lifecycle/message-lifecycle';

type Report = Pick<InboundStatusItem, 'status' | 'errors' | 'occurred_at'> &
  Partial<Pick<InboundStatusItem, 'provider_message_id' | 'pricing'>>;

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

/** A receipt of a known message, applied by the status rules inside the caller's transaction. */
async function applyOne(
  deps: ChangeStatusDeps & Pick<MessagingDeps, 'reader'>,
  tx: Tx,
  item: InboundStatusItem,
): Promise<void> {
  const message = await deps.reader.findByProviderId(tx, item.provider_message_id, { lock: true });
  const change = toChange(item);
  if (message && change) await changeStatus(deps, tx, message, change);
}

const FORWARD = new Set<MessageStatus>(['sent', 'delivered', 'read']);

/** A receipt and the trace of the message that brought it. */
export interface StatusReport {
  item: InboundStatusItem;
  traceparent?: string;
  /**
   * Wait for the lock of the message its callback data names, rather than answer `busy` (see applyStatusReports):
   * for a receipt that found it busy several times already.
   */
  waitForAttempt?: boolean;
}

/** What came of a receipt in its batch: applied (or kept for its wamid), or not applied, to be submitted again. */
export type StatusReportOutcome = 'applied' | 'busy';

/**
 * Delivery receipts from the upstream, a batch in one transaction: each applied by the status rules. A receipt
 * whose wamid no message has yet gives it to the send attempt its callback data names (reconcileSendAttempts);
 * one that names none is kept until the send records the provider message id. The common case (one
 * sent, delivered or read report for a message) is one statement for the whole batch; several such reports of one
 * message are applied in arrival order, as they would be alone, one more statement per further report of the
 * most reported message (a backlog brings sent, delivered and read together); a failure goes through changeStatus
 * one by one in arrival order. Each
 * status event continues the trace of the send that created the message (the upstream's webhooks carry none, so
 * the receipt's own trace began at webhook-ingress); a debug line links the two. Messages stored before traces
 * were kept continue the receipt's trace.
 *
 * A receipt whose wamid no message has, and whose callback data names a message another transaction holds (the
 * send recording that wamid right now, nearly always), is not waited for: it is answered `busy`, changes nothing,
 * and its submitter offers it again a moment later (by then it usually finds its message by its wamid).
 */
export type ApplyStatusReportsDeps = ChangeStatusDeps &
  Pick<
    MessagingDeps,
    'unitOfWork' | 'statusReports' | 'accounts' | 'logger' | 'reader' | 'sendQueue' | 'rateCard'
  >;

export async function applyStatusReports(
  deps: ApplyStatusReportsDeps,
  reports: StatusReport[],
): Promise<StatusReportOutcome[]> {
  return deps.unitOfWork.inTransaction(async (tx) => {
    // The statuses from which some receipt of the batch can move each message: only those rows are locked.
    const movableFrom = new Map<string, Set<MessageStatus>>();
    for (const r of reports) {
      const from = movableFrom.get(r.item.provider_message_id) ?? new Set<MessageStatus>();
      const change = toChange(r.item);
      if (change) for (const status of statusesBefore(change.status)) from.add(status);
      movableFrom.set(r.item.provider_message_id, from);
    }
    const {
      messages: locked,
      settled,
      busy,
    } = await deps.statusReports.lockForReports(
      tx,
      [...movableFrom].map(([providerMessageId, from]) => ({ providerMessageId, movableFrom: [...from] })),
      {
        wait: attemptMessageIds(reports.filter((r) => r.waitForAttempt)),
        skipLocked: attemptMessageIds(reports.filter((r) => !r.waitForAttempt)),
      },
    );
    const messages = new Map(locked.flatMap((m) => (m.providerMessageId ? [[m.providerMessageId, m]] : [])));
    // Receipts of settled messages change nothing and emit nothing, as each would alone.
    const unchanged = new Set(settled.map((m) => m.providerMessageId));
    const busyIds = new Set(busy.map((m) => m.id));
    const unmatched = (r: StatusReport) =>
      !messages.has(r.item.provider_message_id) && !unchanged.has(r.item.provider_message_id);
    const outcomes = reports.map((r): StatusReportOutcome => {
      const named = attemptOf(r.item.biz_opaque_callback_data)?.messageLogId;
      return unmatched(r) && named !== undefined && busyIds.has(named) ? 'busy' : 'applied';
    });
    const unnamed = await reconcileSendAttempts(
      deps,
      tx,
      reports.filter((r, i) => unmatched(r) && outcomes[i] === 'applied'),
      new Map(locked.map((m) => [m.id, m])),
      messages,
    );
    await deps.statusReports.keepPendingReports(
      tx,
      unnamed.map((r) => r.item),
    );
    const byMessage = new Map<string, StatusReport[]>();
    for (const r of reports.filter((r) => messages.has(r.item.provider_message_id))) {
      const key = r.item.provider_message_id;
      byMessage.set(key, [...(byMessage.get(key) ?? []), r]);
    }
    // rounds[k] holds the (k+1)-th move of each message: one statement cannot update a row twice.
    const rounds: ForwardMove[][] = [];
    const oneByOne: StatusReport[] = [];
    for (const [providerMessageId, ofMessage] of byMessage) {
      const message = messages.get(providerMessageId)!;
      const changes = ofMessage.map((r) => toChange(r.item));
      if (!changes.every((c) => c !== undefined && FORWARD.has(c.status))) {
        oneByOne.push(...ofMessage);
        continue;
      }
      // In arrival order, as each would apply alone: a duplicate or late receipt changes nothing, emits nothing.
      let current = message.status;
      let round = 0;
      ofMessage.forEach((report, i) => {
        const change = changes[i]!;
        if (!canMoveTo(current, change.status)) return;
        const status = change.status as ForwardMove['status'];
        const event = buildEvent<'message.status_updated'>(
          message.tenantId,
          statusEventFields({ ...message, status }, current),
        );
        (rounds[round] ??= []).push({
          id: message.id,
          status,
          expected: statusesBefore(status),
          at: change.at ?? new Date(),
          eventId: event.messageId,
          event: event.payload,
          traceparent: traceOf(deps, message, report),
        });
        round += 1;
        current = status;
      });
    }
    for (const moves of rounds) await deps.statusReports.moveForward(tx, moves);
    for (const r of oneByOne) {
      const message = messages.get(r.item.provider_message_id)!;
      await runInTrace(traceOf(deps, message, r), () => applyOne(deps, tx, r.item));
    }
    await deps.statusReports.markReported(
      tx,
      reportMarks(
        deps,
        reports.map((r) => r.item),
        [...locked, ...settled],
      ),
    );
    await deps.statusReports.markReportedThrough(tx, reportedThrough(reports, messages, settled));
    return outcomes;
  });
}

/** The send answers of the messages this batch's reports named, by number: how far its reports have come. */
function reportedThrough(
  reports: readonly StatusReport[],
  messages: ReadonlyMap<string, MessageLog>,
  settled: readonly MessageLog[],
): Array<{ channelAccountId: string; sentAt: Date }> {
  const named = [...reports.flatMap((r) => messages.get(r.item.provider_message_id) ?? []), ...settled];
  return named.flatMap((m) => (m.sentAt ? [{ channelAccountId: m.channelAccountId, sentAt: m.sentAt }] : []));
}

/**
 * What the batch's reports say beside a status (CONTRACT.md, the network of late 2026): any report of a held
 * message ends its hold, `played` (which moves no status and emits nothing) records when a voice message was
 * played, and a report's `pricing` prices the message by the operator's rate card.
 */
export function reportMarks(
  deps: Pick<MessagingDeps, 'rateCard'>,
  reports: Array<
    Pick<
      InboundStatusItem,
      'provider_message_id' | 'status' | 'occurred_at' | 'pricing' | 'biz_opaque_callback_data'
    >
  >,
  known: MessageLog[],
): ReportMark[] {
  const byWamid = new Map(known.flatMap((m) => (m.providerMessageId ? [[m.providerMessageId, m]] : [])));
  const byId = new Map(known.map((m) => [m.id, m]));
  return reports.flatMap((item) => {
    // A report that overtook its send's answer finds its message by the attempt it names (its wamid was not
    // recorded when the message was read): it prices that message all the same.
    const named = attemptOf(item.biz_opaque_callback_data)?.messageLogId;
    const message =
      byWamid.get(item.provider_message_id) ?? (named === undefined ? undefined : byId.get(named));
    const played = item.status === 'played';
    if (!message || (!played && !message.held && !item.pricing)) return [];
    const pricing = item.pricing
      ? { model: item.pricing.pricing_model, type: item.pricing.type, category: item.pricing.category }
      : null;
    return [
      {
        id: message.id,
        playedAt: played ? new Date(item.occurred_at) : null,
        priced: pricing && {
          pricing,
          cost: costOf(deps.rateCard, pricing, recipientOf(message)),
          currency: deps.rateCard.currency,
        },
      },
    ];
  });
}

/** The trace a receipt's status event continues: its message's send, else the receipt's own. */
function traceOf(
  deps: Pick<MessagingDeps, 'logger'>,
  message: MessageLog,
  report: StatusReport,
): string | undefined {
  if (message.traceparent === null) return report.traceparent;
  if (deps.logger.isDebugEnabled()) {
    deps.logger.debug('status receipt joins its send', {
      trace_id: parseTraceparent(message.traceparent)?.traceId,
      receipt_trace_id: parseTraceparent(report.traceparent)?.traceId,
      message_log_id: message.id,
      status: report.item.status,
    });
  }
  return message.traceparent;
}

const ORDER = ['sent', 'delivered', 'read', 'failed', 'played'];

/** Applies the reports that arrived before this message's provider id was known, in status order. */
export async function applyPendingReports(
  deps: ChangeStatusDeps & Pick<MessagingDeps, 'statusReports' | 'rateCard'>,
  tx: Tx,
  message: MessageLog,
): Promise<void> {
  if (!message.providerMessageId) return;
  const rows = await deps.statusReports.takePendingReports<Report>(tx, message.providerMessageId);
  let current = message;
  const sorted = rows.sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
  for (const row of sorted) {
    const change = toChange(row.report);
    if (!change) continue;
    current = (await changeStatus(deps, tx, current, change)) ?? current;
  }
  const providerMessageId = message.providerMessageId;
  const marks = reportMarks(
    deps,
    sorted.map(({ report }) => ({ ...report, provider_message_id: providerMessageId })),
    [current],
  );
  await deps.statusReports.markReported(tx, marks);
}
