import {
  continueTrace,
  formatTraceparent,
  persistently,
  runWithTrace,
  type TraceContext,
} from '@bm/platform';
import {
  callbackDataOf,
  describeFailure,
  retryDelayMs,
  retryRuleOf,
  reachedStatusEvent,
  sentRecord,
} from '../lifecycle/message-lifecycle';
import { applyPendingReports } from '../statuses/apply-status-report.use-case';
import { changeStatus, type ChangeStatusDeps } from '../statuses/change-status';
import type { MessagingDeps } from '../messaging-deps';

import type { UpstreamFailure } from '../ports/upstream.port';
import type { MessageLog } from '../ports/message-log.port';

/** What a delivery touches: the claims' hand-over, the outcomes, the number, its token and the upstream. */
export type DeliverDeps = ChangeStatusDeps &
  Pick<
    MessagingDeps,
    | 'unitOfWork'
    | 'statusReports'
    | 'accounts'
    | 'secrets'
    | 'upstream'
    | 'logger'
    | 'reader'
    | 'sendQueue'
    | 'handOver'
    | 'rateCard'
    | 'statusEvents'
  >;

/**
 * What came of a failed call, by the code's retry rule (`retryRuleOf`): a refusal that asks for time is tried again
 * while the retry window lasts, a transient error while attempts remain; otherwise, and once those run out, the
 * message fails with the upstream's code.
 */
async function recordFailure(deps: DeliverDeps, message: MessageLog, result: UpstreamFailure): Promise<void> {
  const rule = retryRuleOf(result);
  const delayMs = retryDelayMs(deps.config.SEND_RETRY_BASE_MS, message.sendAttempts);
  const retried =
    (rule === 'wait' &&
      (await deps.sendQueue.scheduleRetry(
        message.id,
        delayMs,
        result.code,
        deps.config.UPSTREAM_RETRY_WINDOW_MS,
      ))) ||
    (rule === 'attempts' &&
      message.sendAttempts < deps.config.SEND_MAX_ATTEMPTS &&
      (await deps.sendQueue.scheduleRetry(message.id, delayMs, result.code)));
  if (retried) {
    deps.logger.warn('upstream send will be retried', {
      message_log_id: message.id,
      code: result.code,
      attempt: message.sendAttempts,
    });
    return;
  }
  await deps.unitOfWork.inTransaction(async (tx) => {
    // A status report naming this attempt may have settled it meanwhile (the upstream took it after all).
    const current = await deps.reader.findById(tx, message.id, { lock: true });
    if (current?.status !== 'queued') return;
    await changeStatus(deps, tx, current, {
      status: 'failed',
      errorCode: result.code,
      errorMessage: describeFailure(result.code, result.message),
    });
  });
}

/**
 * The `sent` events of the messages among `ids` that the upstream took (a `sent_at` and a wamid), as markSent's
 * callers sent them, when the sends may have been recorded without their events going out: a deliver command the
 * broker delivered again (its first delivery died), or a markSent tried again (an earlier try's commit may have gone
 * through, its answer lost). The same events: their ids derive from message and status.
 */
export async function sendEventsOfSent(
  deps: Pick<DeliverDeps, 'reader' | 'statusEvents'>,
  ids: readonly number[],
): Promise<void> {
  const messages = await deps.reader.findByIds(ids);
  await deps.statusEvents.send(messages.flatMap((m) => reachedStatusEvent(m, 'sent') ?? []));
}

/**
 * Sends a batch of queued messages: the hand-over claims them all in one statement and hands each to the upstream
 * within its number's throughput (SendHandOver); one statement records every success with its status event, a
 * refusal is retried or fails by its code's rule, and an unknown outcome waits for the upstream's reports. Each
 * message continues its own trace (`traceparentOf`, the trace of its delivery command): its upstream call, logs
 * and events.
 */
export async function deliverMessages(
  deps: DeliverDeps,
  ids: number[],
  traceparentOf: (id: number) => string | undefined = () => undefined,
): Promise<void> {
  const spans = new Map<number, TraceContext>();
  const traceOf = (id: number): TraceContext => {
    if (!spans.has(id)) spans.set(id, continueTrace(traceparentOf(id)));
    return spans.get(id)!;
  };
  const outcomes = await deps.handOver.handOver(ids, async (channelAccountId) => {
    const account = await deps.accounts.findCached(channelAccountId);
    if (!account) throw new Error(`channel account ${channelAccountId} vanished`);
    const token = deps.secrets.open(account.accessTokenSealed);
    return {
      throughputPerSecond: account.throughputPerSecond,
      send: (message) =>
        runWithTrace(traceOf(message.id), () =>
          deps.upstream.sendMessageLog(account.phoneNumberId, token, message, callbackDataOf(message)),
        ),
    };
  });

  const sent = outcomes.flatMap(({ message, result }) =>
    result.ok
      ? [sentRecord(message, result.providerMessageId, formatTraceparent(traceOf(message.id)), result.held)]
      : [],
  );
  let tries = 0;
  const recorded = await persistently(deps.logger, 'recording sent messages', () => {
    tries += 1;
    return deps.sendQueue.markSent(sent);
  });
  // Sent before the reports that overtook the answer apply, so that `sent` goes out ahead of them.
  if (tries > 1)
    await sendEventsOfSent(
      deps,
      sent.map((s) => s.id),
    );
  else {
    const recordedIds = new Set(recorded.map((r) => r.message.id));
    await deps.statusEvents.send(sent.filter((s) => recordedIds.has(s.id)));
  }
  for (const { message } of recorded.filter((r) => r.hasPendingReports)) {
    await runWithTrace(traceOf(message.id), () =>
      deps.unitOfWork.inTransaction((tx) => applyPendingReports(deps, tx, message)),
    );
  }
  // An unknown outcome stays queued, its attempt recorded, until a status report naming this attempt gives it its
  // wamid, or the sweeps settle it (its number's reports came past it, or the window ran out).
  const unknown = outcomes.filter(({ result }) => !result.ok && result.unknown);
  if (unknown.length > 0) await deps.handOver.leaveUnknown(unknown.map(({ message }) => message.id));
  for (const { message, result } of outcomes) {
    if (result.ok) continue;
    if (result.unknown) {
      runWithTrace(traceOf(message.id), () =>
        deps.logger.warn('send outcome unknown, waiting for its status report', {
          message_log_id: message.id,
          attempt: message.sendAttempts,
          error: result.message,
        }),
      );
      continue;
    }
    await runWithTrace(traceOf(message.id), () =>
      persistently(deps.logger, 'recording a failed send', () => recordFailure(deps, message, result)),
    );
  }
}
