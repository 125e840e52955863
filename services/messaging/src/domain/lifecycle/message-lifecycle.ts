import { isUserIdAddress, type MessageStatus } from '@bm/contracts';
import { derivedUlid } from '@bm/platform';
import { buildEvent } from '../emit-event';
import type { MessageLog, SentRecord, StatusEventToSend } from '../ports/message-log.port';

/*
 * A message's life, as plain rules: its statuses and the order they move in (CONTRACT.md "Message status
 * rules"), the sub-states a `queued` message passes through on its way to the upstream, and the customer service
 * window that decides whether a free-form text may go at all. No I/O: the use cases apply these rules, and
 * data access reads and writes the columns that record them (status-columns.ts, queued-sub-states.ts).
 */

const RANK: Record<MessageStatus, number> = {
  scheduled: 0,
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
  cancelled: 4,
};

/** The statuses no report or command can move a message out of. */
export const FINAL_STATUSES: ReadonlySet<MessageStatus> = new Set(['failed', 'cancelled']);

/**
 * Statuses only move forward (queued/scheduled < sent < delivered < read); `failed` may follow any state but
 * `read`; `cancelled` only a scheduled message; `failed` and `cancelled` are final. Duplicates and late reports
 * change nothing.
 */
export function canMoveTo(current: MessageStatus, next: MessageStatus): boolean {
  if (FINAL_STATUSES.has(current)) return false;
  if (next === 'failed') return current !== 'read';
  if (next === 'cancelled') return current === 'scheduled';
  return RANK[next] > RANK[current];
}

/** The statuses from which `next` may be reached, for a conditional UPDATE. */
export function statusesBefore(next: MessageStatus): MessageStatus[] {
  return (Object.keys(RANK) as MessageStatus[]).filter((s) => canMoveTo(s, next));
}

/** The error_message a failed message shows: the upstream code first, so clients can branch on it. */
export function describeFailure(code: number | null, message: string): string {
  return code === null ? message : `upstream error ${code}: ${message}`;
}

/**
 * Where a `queued` message stands on its way to the upstream. The columns that record it are
 * `attempt_started_at` (a worker claimed it for an attempt), `awaiting_slot` (the claim waits for the number's
 * throughput slot) and `next_attempt_at` (a retry, or a requeue, is due then).
 * - `ready`: nothing in progress, nothing scheduled: the deliver command is on its way to a worker;
 * - `retry-due`: it waits for `next_attempt_at` (a throughput refusal's back-off, a requeue);
 * - `awaiting-slot`: claimed, waiting for its throughput slot, not yet sent: a crash here loses no send, so a
 *   claim left this way is simply released and sent again;
 * - `in-flight`: claimed and handed to the upstream (or about to be): if the worker dies now the outcome is
 *   unknown until the upstream's reports for its attempt (`biz_opaque_callback_data`) settle it;
 * - `stranded`: ready, but its deliver command was lost (no worker took it for longer than the sweep's age):
 *   the sweep queues it again.
 */
export type QueuedSubState = 'ready' | 'retry-due' | 'awaiting-slot' | 'in-flight' | 'stranded';

export interface QueuedFacts {
  attemptStartedAt: Date | null;
  awaitingSlot: boolean;
  nextAttemptAt: Date | null;
  /** When the row last changed: a ready message untouched for longer than `strandedAfterMs` is stranded. */
  updatedAt?: Date;
}

/** The sub-state of a queued message from its columns, at `now`. */
export function queuedSubStateOf(facts: QueuedFacts, now: Date, strandedAfterMs = Infinity): QueuedSubState {
  if (facts.attemptStartedAt !== null) return facts.awaitingSlot ? 'awaiting-slot' : 'in-flight';
  if (facts.nextAttemptAt !== null) return 'retry-due';
  if (facts.updatedAt && now.getTime() - facts.updatedAt.getTime() > strandedAfterMs) return 'stranded';
  return 'ready';
}

/** Hours after a customer's last message during which a free-form text may reach them (Meta's rule). */
export const SERVICE_WINDOW_HOURS = 24;

/** Only a free-form text needs an open service window; templates may go at any time. */
export function needsServiceWindow(messageType: string): boolean {
  return messageType === 'text';
}

/** Whether the window opened by a customer's last message at `lastInboundAt` is still open at `now`. */
export function isServiceWindowOpen(lastInboundAt: Date | null, now: Date): boolean {
  return lastInboundAt !== null && now.getTime() - lastInboundAt.getTime() < SERVICE_WINDOW_HOURS * 3_600_000;
}

/**
 * What a refused send does next, by the upstream's code (CONTRACT.md, "Holds, errors and their rules"):
 * - `wait`: throughput (130429), too many to one customer (131056), an upgrade in progress (131057) only ask for
 *   time; retried with backoff for as long as the retry window lasts, never failed by themselves;
 * - `attempts`: a transient error (no code and a 5xx or no answer, or 131000/131016); retried up to the attempts;
 * - `never`: everything else (130472, 131026, 131050, 131062 among them) fails the message at once.
 */
export type RetryRule = 'wait' | 'attempts' | 'never';

const WAIT_CODES: ReadonlySet<number> = new Set([130429, 131056, 131057]);

export function retryRuleOf(failure: { code: number | null; retryable: boolean }): RetryRule {
  if (failure.code !== null && WAIT_CODES.has(failure.code)) return 'wait';
  return failure.retryable ? 'attempts' : 'never';
}

/** The longest wait between two tries of a refusal that asks for time. */
export const MAX_RETRY_DELAY_MS = 60_000;

/** The wait before the next try of a message refused for the `attempt`-th time (1-based): doubling, capped. */
export function retryDelayMs(baseMs: number, attempt: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** The upstream's code for a customer who stopped marketing messages from the business (WIRE-2026.md). */
const MARKETING_STOPPED = 131050;

/** Whether a failure says the customer stopped marketing: they get no more until they resume (CONTRACT.md). */
export function stopsMarketing(errorCode: number | null | undefined): boolean {
  return errorCode === MARKETING_STOPPED;
}

/**
 * Who a message goes to, as the API and the events show it. `toPhone` is the customer's address, the key of the
 * window and the conversation: their phone, or for a send by user id whose phone the product does not know, the
 * user id itself, shown as no phone.
 */
export function recipientOf(m: { toPhone: string; toUserId: string | null }): {
  phone: string | null;
  userId: string | null;
} {
  return { phone: isUserIdAddress(m.toPhone) ? null : m.toPhone, userId: m.toUserId };
}

/** One send attempt of a message log: its id and the attempt number the claim gave it. */
export interface SendAttemptId {
  messageLogId: number;
  attempt: number;
}

// `bm1:` marks our own data (another sender on the same WABA may use the field too) and its format's version.
const FORMAT = /^bm1:(\d{1,18}):(\d{1,6})$/;

/**
 * The `biz_opaque_callback_data` of a send attempt. The upstream echoes it in every status report of the
 * message, which is how a report is tied to a send whose answer (and so whose wamid) never arrived.
 */
export function callbackDataOf(message: { id: number; sendAttempts: number }): string {
  return `bm1:${message.id}:${message.sendAttempts}`;
}

/** The send attempt a status report names, or undefined when it carries no callback data of ours. */
export function attemptOf(callbackData: string | null | undefined): SendAttemptId | undefined {
  const match = FORMAT.exec(callbackData ?? '');
  if (!match) return undefined;
  return { messageLogId: Number(match[1]), attempt: Number(match[2]) };
}

export interface StatusChange {
  status: MessageStatus;
  at?: Date;
  providerMessageId?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
}

/** The fields of `message.status_updated` for a message now in its new status. */
export function statusEventFields(updated: MessageLog, previous: MessageStatus) {
  return {
    message_log_id: updated.id,
    channel_account_id: updated.channelAccountId,
    status: updated.status,
    previous_status: previous,
    to_phone: recipientOf(updated).phone,
    provider_message_id: updated.providerMessageId,
    error_code: updated.errorCode,
    error_message: updated.errorMessage,
    campaign_id: updated.campaignId,
    campaign_recipient_id: updated.campaignRecipientId,
    campaign_recipient_attempt: updated.campaignRecipientAttempt,
  };
}

/**
 * A message's `message.status_updated` for its new status. A message reaches each status once, so the event's id
 * derives from the message and the status: emitted again (a receipt redelivered after a crash that followed its
 * commit, see StatusReportBatches), it is the same event, and each consumer keeps one copy.
 */
export function statusEvent(updated: MessageLog, previous: MessageStatus) {
  return buildEvent<'message.status_updated'>(
    updated.tenantId,
    statusEventFields(updated, previous),
    statusEventId(updated),
  );
}

/**
 * The status event a message emitted when it reached `status`, rebuilt from its row, to be sent again (after a
 * crash that may have lost it): undefined unless it reached that status (its time column set; `sent` also needs
 * its wamid). The same event: its id derives from the message and the status, the status it came from is read off
 * the times (a `read` that followed no `delivered` came from `sent`), and a failure since (one may follow
 * `delivered`) is no part of it.
 */
export function reachedStatusEvent(
  message: MessageLog,
  status: string,
  traceparent?: string,
): StatusEventToSend | undefined {
  const reached = {
    sent: message.providerMessageId === null ? null : message.sentAt,
    delivered: message.deliveredAt,
    read: message.readAt,
  };
  if (!(status in reached) || !reached[status as keyof typeof reached]) return undefined;
  const previous: MessageStatus =
    status === 'sent' ? 'queued' : status === 'read' && message.deliveredAt ? 'delivered' : 'sent';
  const view = { ...message, status: status as MessageStatus, errorCode: null, errorMessage: null };
  const event = statusEvent(view, previous);
  return { eventId: event.messageId, event: event.payload, traceparent: message.traceparent ?? traceparent };
}

/** The id of a message's status event for the status it is in (statusEvent). */
export function statusEventId(message: Pick<MessageLog, 'id' | 'status' | 'createdAt'>): string {
  return derivedUlid(message.createdAt.getTime(), `message.status_updated:${message.id}:${message.status}`);
}

/** A queued message the upstream accepted as `providerMessageId`, with its `sent` event, as `markSent` takes it. */
export function sentRecord(
  message: MessageLog,
  providerMessageId: string,
  traceparent: string | undefined,
  held = false,
): SentRecord {
  const view: MessageLog = { ...message, status: 'sent', providerMessageId };
  const event = statusEvent(view, 'queued');
  return {
    id: message.id,
    providerMessageId,
    eventId: event.messageId,
    event: event.payload,
    traceparent,
    held,
  };
}
