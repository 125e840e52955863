import { sentRecord } from './change-status';
import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import { attemptOf } from './send-attempt';
import type { MessageLog } from '../ports/message-log.port';

/** A status report as reconciliation reads it: its wamid, status and echoed callback data. */
interface NamedReport {
  item: {
    provider_message_id: string;
    status: string;
    phone_number_id: string | null;
    biz_opaque_callback_data?: string | null;
  };
  traceparent?: string;
}

/** The message logs the reports' callback data names, to be locked with the batch's messages. */
export function attemptMessageIds(reports: NamedReport[]): number[] {
  return [
    ...new Set(
      reports.flatMap((r) => {
        const attempt = attemptOf(r.item.biz_opaque_callback_data);
        return attempt ? [attempt.messageLogId] : [];
      }),
    ),
  ];
}

/**
 * Whether the attempt a report names can be this message's: one it made, reported by its own number. Another
 * deployment sending from the same number (a staging one, say) writes the same format with ids of its own.
 */
async function isOwnAttempt(
  deps: Pick<MessagingDeps, 'accounts'>,
  message: MessageLog,
  attempt: number,
  report: NamedReport,
): Promise<boolean> {
  if (attempt > message.sendAttempts) return false;
  const account = await deps.accounts.findCached(message.channelAccountId);
  return account?.phoneNumberId === report.item.phone_number_id;
}

/**
 * Ties reports whose wamid no message has to the send attempt their callback data names. A message still queued
 * without a wamid takes the report's: its send reached the upstream although its answer never came (the worker
 * died in the call, the call timed out, the connection broke after the request was written), or has not come
 * yet. It becomes `sent` as a send's answer would make it (its event, its conversation in the tier ledger), and
 * is added to `known`, so the caller applies the reports themselves by the status rules. A report naming a
 * message that has another wamid, or that was settled meanwhile, belongs to a superseded attempt: it changes
 * nothing. Returns the reports that name no message of ours, which wait for their wamid as before.
 *
 * Runs inside the caller's transaction, with every named message locked. The messages it reconciles become
 * `sent` in one statement for the batch.
 */
export async function reconcileSendAttempts<R extends NamedReport>(
  deps: Pick<MessagingDeps, 'accounts' | 'messages' | 'sendQueue' | 'logger' | 'config'>,
  tx: Tx,
  unmatched: R[],
  byId: Map<number, MessageLog>,
  known: Map<string, MessageLog>,
): Promise<R[]> {
  const unnamed: R[] = [];
  // The first report (in arrival order) naming each reconcilable message gives it its wamid; a later one naming
  // the same message with the same wamid is then known, with another it belongs to a superseded attempt.
  const taken = new Map<number, { wamid: string; report: R; attempt: number }>();
  for (const report of unmatched) {
    const wamid = report.item.provider_message_id;
    if (known.has(wamid)) continue;
    const attempt = attemptOf(report.item.biz_opaque_callback_data);
    const message = attempt && byId.get(attempt.messageLogId);
    if (!attempt || !message || !(await isOwnAttempt(deps, message, attempt.attempt, report))) {
      unnamed.push(report);
      continue;
    }
    const first = taken.get(message.id);
    if (first?.wamid === wamid) continue;
    if (first || message.status !== 'queued' || message.providerMessageId !== null) {
      deps.logger.info('status report of a superseded send attempt changes nothing', {
        message_log_id: message.id,
        attempt: attempt.attempt,
        status: first ? 'sent' : message.status,
        report_status: report.item.status,
      });
      continue;
    }
    taken.set(message.id, { wamid, report, attempt: attempt.attempt });
  }
  if (taken.size === 0) return unnamed;
  const records = [...taken.entries()].map(([id, { wamid, report }]) => {
    const message = byId.get(id)!;
    return sentRecord(message, wamid, message.traceparent ?? report.traceparent);
  });
  for (const { message: recorded } of await deps.sendQueue.markSent(records, tx)) {
    const { wamid, report, attempt } = taken.get(recorded.id)!;
    const message = byId.get(recorded.id)!;
    // Worth an operator's eye only when the answer is lost for sure; a report merely overtaking it is common.
    const lost =
      message.attemptStartedAt === null ||
      Date.now() - message.attemptStartedAt.getTime() > deps.config.UPSTREAM_TIMEOUT_MS;
    deps.logger[lost ? 'info' : 'debug']('send attempt reconciled from its status report', {
      message_log_id: message.id,
      attempt,
      report_status: report.item.status,
    });
    known.set(wamid, recorded);
    byId.set(message.id, recorded);
  }
  return unnamed;
}
