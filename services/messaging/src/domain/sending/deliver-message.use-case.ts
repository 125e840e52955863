import {
  continueTrace,
  formatTraceparent,
  isTransientFailure,
  runWithTrace,
  type TraceContext,
} from '@bm/platform';
import { describeFailure, retryDelayMs, retryRuleOf } from '../lifecycle/message-lifecycle';
import { applyPendingReports } from '../statuses/apply-status-report.use-case';
import { changeStatus, sentRecord, type ChangeStatusDeps } from '../statuses/change-status';
import type { MessagingDeps } from '../messaging-deps';
import { callbackDataOf } from '../statuses/send-attempt';
import type { ThroughputLimiter } from './throughput-limiter';
import type { SendResult, UpstreamFailure } from '../ports/upstream.port';
import type { MessageLog } from '../ports/message-log.port';

/** Retries a write that must not be lost after the upstream accepted (a database blip must not cost the result). */
/** What a delivery touches: the claim and its outcome, the number, its token and the upstream. */
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
    | 'rateCard'
  >;

/**
 * Writes what a send worker knows (the upstream's answer, a claim it gives back) until it is written. An answer in
 * hand is never thrown away for an outage: while the database or the broker is away (a transient failure), the
 * write is tried again for as long as it lasts, at most `PERSIST_RETRY_MAX_MS` apart; only a process that dies can
 * leave an outcome unknown (issue 33). Any other failure is given up after 8 tries.
 */
async function persistently<T>(
  deps: Pick<MessagingDeps, 'logger'>,
  what: string,
  write: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= 8 && !isTransientFailure(err)) throw err;
      deps.logger.warn(`${what} failed, retrying`, { attempt, error: (err as Error).message });
      await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** Math.min(attempt, 10), PERSIST_RETRY_MAX_MS)));
    }
  }
}

/** The longest pause between two tries of a write that must be made (an answer in hand). */
const PERSIST_RETRY_MAX_MS = 5_000;

/**
 * A message whose slot comes due within this time of the claim is handed to the upstream without first
 * recording that it is (see `sendAll`): a worker that dies within it leaves messages whose outcome is unknown.
 */
const HAND_OVER_UNRECORDED_MS = 100;
/** Not handed over: leaving the awaiting state could not be recorded; its claim goes back. */
const UNRECORDED = Symbol('unrecorded');
/** Not handed over: the claim is no longer this worker's. */
const NOT_OURS = Symbol('not ours');
/** Not handed over: its slot had passed by the time the hand-over was recorded; its claim goes back. */
const LATE = Symbol('late');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one account's claimed messages, each as soon as the number's throughput allows. If the budget cannot be
 * asked (Redis away) or the account cannot be read, the messages not yet handed over give their claim back and
 * come again through the scheduler: nothing was sent, so nothing is counted or failed.
 *
 * A slow number's messages wait claimed for their slots (up to half the attempt grace). So that a worker dying
 * meanwhile does not leave them looking like calls of unknown outcome (failed, never resent), the messages whose
 * slot is not due within HAND_OVER_UNRECORDED_MS (or who got none) are recorded as awaiting their slot as soon as
 * the schedule is known, and each group of them leaves that state in a committed write before its upstream call:
 * the sweep sends those again, safely, since they never left. A fast number's batch goes out within that time
 * and costs no write.
 *
 * Slots are taken HAND_OVER_UNRECORDED_MS before they are due, so that a group's write is done by then; each call
 * leaves at its slot's instant, never earlier, and one whose write ended too late to keep the slot gives its claim
 * back (sent late, it would crowd the next second at the upstream, which counts arrivals).
 */
async function sendAll(
  deps: DeliverDeps,
  limiter: ThroughputLimiter,
  messages: MessageLog[],
  traceOf: (id: number) => TraceContext,
): Promise<Array<{ message: MessageLog; result: SendResult }>> {
  const calls: Array<Promise<SendResult | typeof UNRECORDED | typeof NOT_OURS | typeof LATE>> = [];
  const idsOf = (list: MessageLog[]) => list.map((m) => m.id);
  // The awaiting-slot writes of this batch, in order: a group's hand-over never overtakes the mark before it.
  let marks: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(write: () => Promise<T>): Promise<T> => {
    const next = marks.catch(() => undefined).then(write);
    marks = next;
    return next;
  };
  // Messages from this index on wait for their slot, recorded as such: each group leaves that state before its call.
  let firstAwaiting = messages.length;
  // Called after each ask for slots, before any of them is used: the messages not yet handed over whose slot is
  // not due soon (on a later ask, those whose first slots were given up as late) are marked from here on.
  const onSchedule = (dueSoon: number) => {
    const boundary = calls.length + dueSoon;
    if (boundary >= firstAwaiting) return;
    const newlyAwaiting = messages.slice(boundary, firstAwaiting);
    firstAwaiting = boundary;
    inOrder(() => deps.sendQueue.markAwaitingSlot(newlyAwaiting, true)).catch((err: unknown) =>
      deps.logger.warn('awaiting slot not recorded', { error: (err as Error).message }),
    );
  };
  try {
    const account = await deps.accounts.findCached(messages[0].channelAccountId);
    if (!account) throw new Error(`channel account ${messages[0].channelAccountId} vanished`);
    const token = deps.secrets.open(account.accessTokenSealed);
    // The attempt was recorded at the claim: a message waits for its slot at most half the grace after which an
    // attempt counts as abandoned, so waiting is never mistaken for a worker that died mid-call.
    const maxWaitMs = Math.min(10_000, deps.config.ATTEMPT_GRACE_MS / 2);
    const granted = await limiter.acquire(
      account.id,
      account.throughputPerSecond,
      messages.length,
      (n, dueAt) => {
        const from = calls.length;
        const group = messages.slice(from, from + n);
        // The messages of the group still held by this claim (a sweep may have given a long-stalled one to
        // another worker), or 'unrecorded' when the write failed. Those due soon were never marked.
        const marked = group.slice(Math.max(0, firstAwaiting - from));
        const direct = idsOf(group.slice(0, group.length - marked.length));
        const held: Promise<Set<number> | 'unrecorded'> =
          marked.length === 0
            ? Promise.resolve(new Set(direct))
            : inOrder(() => deps.sendQueue.markAwaitingSlot(marked, false)).then(
                (ids) => new Set([...direct, ...ids]),
                () => 'unrecorded' as const,
              );
        group.forEach((message, k) => {
          calls.push(
            (async () => {
              const ids = await held;
              if (ids === 'unrecorded') return UNRECORDED;
              if (!ids.has(message.id)) return NOT_OURS;
              const wait = dueAt[k] - Date.now();
              if (wait > 0) await sleep(wait);
              if (Date.now() - dueAt[k] > limiter.latenessAllowedMs) return LATE;
              return runWithTrace(traceOf(message.id), () =>
                deps.upstream.sendMessageLog(account.phoneNumberId, token, message, callbackDataOf(message)),
              );
            })(),
          );
        });
      },
      maxWaitMs,
      { withinMs: HAND_OVER_UNRECORDED_MS, onSchedule, leadMs: HAND_OVER_UNRECORDED_MS },
    );
    // A slow number's later slots are far off: those messages give their claim back rather than wait claimed.
    if (granted < messages.length) {
      await persistently(deps, 'giving claims back', () =>
        deps.sendQueue.releaseClaims(idsOf(messages.slice(granted)), 0),
      );
    }
  } catch (err) {
    const unsent = idsOf(messages.slice(calls.length));
    deps.logger.warn('sending paused, claims given back', {
      messages: unsent.length,
      error: (err as Error).message,
    });
    await persistently(deps, 'giving claims back', () =>
      deps.sendQueue.releaseClaims(unsent, deps.config.SEND_RETRY_BASE_MS),
    );
  }
  const results = await Promise.all(calls);
  await marks.catch(() => undefined);
  const unrecorded = idsOf(messages.filter((_m, i) => results[i] === UNRECORDED));
  if (unrecorded.length > 0) {
    deps.logger.warn('hand-over not recorded, claims given back', { messages: unrecorded.length });
    await persistently(deps, 'giving claims back', () =>
      deps.sendQueue.releaseClaims(unrecorded, deps.config.SEND_RETRY_BASE_MS),
    );
  }
  const late = idsOf(messages.filter((_m, i) => results[i] === LATE));
  if (late.length > 0) {
    deps.logger.warn('slot passed before the hand-over was recorded, claims given back', {
      messages: late.length,
    });
    await persistently(deps, 'giving claims back', () => deps.sendQueue.releaseClaims(late, 0));
  }
  return results.flatMap((result, i) =>
    result === UNRECORDED || result === NOT_OURS || result === LATE ? [] : [{ message: messages[i], result }],
  );
}

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
 * Sends a batch of queued messages: one statement claims them all, each goes to the upstream within its
 * number's throughput, and one statement records every success with its status event. Each message continues
 * its own trace (`traceparentOf`, the trace of its delivery command): its upstream call, logs and events.
 */
export async function deliverMessages(
  deps: DeliverDeps,
  limiter: ThroughputLimiter,
  ids: number[],
  traceparentOf: (id: number) => string | undefined = () => undefined,
): Promise<void> {
  const claimed = await deps.sendQueue.claimAttempts(ids);
  const spans = new Map(claimed.map((m) => [m.id, continueTrace(traceparentOf(m.id))]));
  const traceOf = (id: number) => spans.get(id) ?? continueTrace(undefined);
  const byAccount = new Map<string, MessageLog[]>();
  for (const m of claimed)
    byAccount.set(m.channelAccountId, [...(byAccount.get(m.channelAccountId) ?? []), m]);
  const outcomes = (
    await Promise.all([...byAccount.values()].map((messages) => sendAll(deps, limiter, messages, traceOf)))
  ).flat();

  const sent = outcomes.flatMap(({ message, result }) =>
    result.ok
      ? [sentRecord(message, result.providerMessageId, formatTraceparent(traceOf(message.id)), result.held)]
      : [],
  );
  const recorded = await persistently(deps, 'recording sent messages', () => deps.sendQueue.markSent(sent));
  for (const { message } of recorded.filter((r) => r.hasPendingReports)) {
    await runWithTrace(traceOf(message.id), () =>
      deps.unitOfWork.inTransaction((tx) => applyPendingReports(deps, tx, message)),
    );
  }
  for (const { message, result } of outcomes) {
    if (result.ok) continue;
    if (result.unknown) {
      // Nothing is written: the attempt stays recorded, the message queued, until a status report naming this
      // attempt gives it its wamid, or the reconciliation window runs out (settle-unknown-outcomes).
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
      persistently(deps, 'recording a failed send', () => recordFailure(deps, message, result)),
    );
  }
}
