import type { InboundStatusItem, MessageLogType, MessageStatus } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

/** A message log as the domain sees it. */
export interface MessageLog {
  id: number;
  tenantId: number;
  channelAccountId: string;
  toPhone: string;
  messageType: MessageLogType;
  content: MessageContent;
  templateCategory: string | null;
  conversationCategory: string;
  status: MessageStatus;
  providerMessageId: string | null;
  scheduledAt: Date | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  costAmount: number;
  costCurrency: string;
  errorCode: number | null;
  errorMessage: string | null;
  autoRetryOnFrequencyCap: boolean;
  retryCount: number;
  retryOfMessageLogId: number | null;
  retriedByMessageLogId: number | null;
  campaignId: string | null;
  campaignRecipientId: string | null;
  /** Which send of the campaign recipient (null from commands that predate the field). */
  campaignRecipientAttempt: number | null;
  sendAttempts: number;
  attemptStartedAt: Date | null;
  createdAt: Date;
  /** The trace of the request that created it; its status events continue it. */
  traceparent: string | null;
}

export type MessageContent =
  | { text: string }
  | { name: string; language: string; components: Array<Record<string, unknown>> }
  /** The upstream `interactive` object (reply buttons or a list), as conversation flows send it. */
  | { interactive: Record<string, unknown> };

/** A message log to write: what a send says, and the retry or campaign recipient it belongs to when it does. */
export type NewMessageLog = Pick<
  MessageLog,
  | 'tenantId'
  | 'channelAccountId'
  | 'toPhone'
  | 'messageType'
  | 'content'
  | 'templateCategory'
  | 'conversationCategory'
  | 'scheduledAt'
  | 'autoRetryOnFrequencyCap'
> & { status: 'queued' | 'scheduled' } & Partial<
    Pick<
      MessageLog,
      'retryCount' | 'retryOfMessageLogId' | 'campaignId' | 'campaignRecipientId' | 'campaignRecipientAttempt'
    >
  >;

export interface InsertOptions {
  deliver?: boolean;
  requireServiceWindow?: boolean;
  /** The trace the delivery command continues; `insert` takes the current one. */
  traceparent?: string;
}

/** A campaign recipient's send as `insertCampaignSend` writes it. */
export interface CampaignSend {
  tenantId: number;
  channelAccountId: string;
  toPhone: string;
  content: { name: string; language: string; components: unknown };
  templateCategory: string | null;
  conversationCategory: string;
  campaignId: string;
  campaignRecipientId: string;
  campaignRecipientAttempt: number | null;
  traceparent: string | null;
}

/** A campaign recipient's send: the recipient and its attempt (null from commands that predate the field). */
export interface CampaignRecipientRef {
  id: string;
  attempt: number | null;
}

/** One campaign recipient's send as a set key. */
export const campaignSendKey = (send: CampaignRecipientRef): string =>
  JSON.stringify([send.id, send.attempt]);

/** A move of one message to a status, with what that status records (its time, the failure, the wamid). */
export interface StatusMove {
  status: MessageStatus;
  at: Date;
  providerMessageId?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
}

/** A queued message the upstream accepted, with its `sent` event, as `markSent` records it. */
export interface SentRecord {
  id: number;
  providerMessageId: string;
  eventId: string;
  event: Record<string, unknown>;
  /** The trace the status event continues. */
  traceparent?: string;
}

/** A forward move of one message (the status rules allowed it), with the event that reports it. */
export interface ForwardMove {
  id: number;
  status: Extract<MessageStatus, 'sent' | 'delivered' | 'read'>;
  /** The statuses it may still move from: the UPDATE is conditional, as a single report's is. */
  expected: MessageStatus[];
  at: Date;
  eventId: string;
  event: Record<string, unknown>;
  /** The trace the status event continues. */
  traceparent?: string;
}

export interface MessageListFilter {
  status?: string;
  toPhone?: string;
  campaignId?: string;
  channelAccountId?: string;
  messageType?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

/** Message logs: written with their delivery command, claimed for a send, moved through their statuses. */
export interface MessageLogStore {
  /** Inserts one message log; see insertMany. */
  insert(tx: Tx, m: NewMessageLog, options: InsertOptions): Promise<MessageLog | undefined>;
  insert(tx: Tx, m: NewMessageLog, options?: { deliver?: boolean }): Promise<MessageLog>;
  /**
   * Inserts message logs in one atomic statement, in order, each with its delivery command when `deliver`; with
   * `requireServiceWindow`, a row is written only while its customer's window is open (else undefined).
   */
  insertMany(
    tx: Tx,
    items: Array<{ message: NewMessageLog } & InsertOptions>,
  ): Promise<Array<MessageLog | undefined>>;
  /** A campaign recipient's queued template message, once per recipient: its id, or undefined when it has one. */
  insertCampaignSend(tx: Tx, send: CampaignSend): Promise<number | undefined>;
  findForTenant(id: number, tenantId: number): Promise<MessageLog | undefined>;
  findById(tx: Tx, id: number, options?: { lock?: boolean }): Promise<MessageLog | undefined>;
  findByProviderId(
    tx: Tx,
    providerMessageId: string,
    options?: { lock?: boolean },
  ): Promise<MessageLog | undefined>;
  findByCampaignRecipient(send: CampaignRecipientRef): Promise<MessageLog | undefined>;
  /** Which of these campaign recipients' sends already have their message log (keys as `campaignSendKey`). */
  existingCampaignRecipients(sends: readonly CampaignRecipientRef[]): Promise<Set<string>>;
  list(
    tenantId: number,
    filter: MessageListFilter,
    page: number,
    perPage: number,
  ): Promise<{ items: MessageLog[]; total: number }>;
  /** Claims queued messages for one send attempt each, recorded before the upstream call. */
  claimAttempts(ids: number[]): Promise<MessageLog[]>;
  /** Gives back claims of messages that were never handed over; they come again after `delayMs`. */
  releaseClaims(ids: number[], delayMs: number): Promise<void>;
  /** Records that claimed messages wait for their slot (`true`) or are about to be handed over; the ids still held. */
  markAwaitingSlot(claimed: MessageLog[], awaiting: boolean): Promise<Set<number>>;
  /** Ends a failed attempt of a still queued message, to be tried again in `delayMs`. */
  scheduleRetry(id: number, delayMs: number, errorCode: number | null): Promise<void>;
  /** Records which message retries a failed one (so that it is retried once). */
  linkRetry(tx: Tx, failedId: number, retryId: number): Promise<void>;
  /**
   * Successful sends in one statement: each message becomes `sent` with its event and conversation; flags those
   * whose status reports overtook the send. In `tx` when given.
   */
  markSent(sent: SentRecord[], tx?: Tx): Promise<Array<{ message: MessageLog; hasPendingReports: boolean }>>;
  /** Moves one message to `move.status` when its status is still one of `expected`; the new row, or undefined. */
  moveTo(
    tx: Tx,
    id: number,
    expected: readonly MessageStatus[],
    move: StatusMove,
  ): Promise<MessageLog | undefined>;
}

/** Status reports of messages, applied in batches, and those that came before their message's wamid. */
export interface StatusReportStore {
  /**
   * Locks the messages with these provider ids whose status is one of the report's `movableFrom` (a receipt can
   * move them), or with the ids `attempts.wait`, in id order (no deadlock between batches); and those of
   * `attempts.skipLocked` that no other transaction holds. Answers the locked messages; as `settled` those with
   * these provider ids that no receipt of the batch can move (read unlocked: statuses only move forward, so they
   * never will); as `busy` those of `attempts.skipLocked` another transaction holds (their rows as last committed).
   */
  lockForReports(
    tx: Tx,
    reports: Array<{ providerMessageId: string; movableFrom: readonly MessageStatus[] }>,
    attempts: { wait: number[]; skipLocked: number[] },
  ): Promise<{ messages: MessageLog[]; settled: MessageLog[]; busy: MessageLog[] }>;
  /** Keeps receipts whose message has no provider id yet, to be applied once the send records it. */
  keepPendingReports(tx: Tx, items: InboundStatusItem[]): Promise<void>;
  /** Moves each message forward and writes its status event, one statement for the batch. */
  moveForward(tx: Tx, moves: ForwardMove[]): Promise<void>;
  /** Takes the reports kept for a provider message id, now that a message has it. */
  takePendingReports<R>(tx: Tx, providerMessageId: string): Promise<Array<{ status: string; report: R }>>;
  /**
   * Messages that have their provider id and yet kept reports (their transaction raced the reports'), among up to
   * `limit` kept reports that arrived after `after` (from the first when null), in arrival order.
   */
  messagesWithOrphanedReports(after: ReportCursor | null, limit: number): Promise<OrphanedReports>;
  /** Deletes up to `limit` kept reports older than `retentionHours`; answers how many. */
  deleteExpiredPendingReports(retentionHours: number, limit: number): Promise<number>;
}

/** A point in the kept reports' arrival order. */
export interface ReportCursor {
  at: Date;
  providerMessageId: string;
}

/** One slice of the orphan sweep: what it found, where the next starts when the slice was full, and when it ran. */
export interface OrphanedReports {
  ids: number[];
  next: ReportCursor | null;
  /** The database's time of the check. */
  checkedAt: Date;
}

/** The scheduler's batches over message logs, each taken so that several replicas sweep side by side. */
export interface MessageSweeps {
  lockDueScheduled(tx: Tx): Promise<MessageLog[]>;
  takeDueRetries(tx: Tx): Promise<number[]>;
  touchStranded(tx: Tx, olderThanMs: number): Promise<number[]>;
  releaseUnfinishedAttempts(
    kind: 'awaiting slot' | 'unknown outcome, not resent',
    olderThanMs: number,
  ): Promise<number>;
  lockUnknownOutcomes(tx: Tx, olderThanMs: number): Promise<MessageLog[]>;
  /**
   * The earliest time a scheduled message or a retry falls due (or fell due just now), or an attempt in flight reaches the
   * end of its window (`settleAfterMs` after it started), if any.
   */
  nextDueAt(settleAfterMs: number): Promise<Date | undefined>;
}

/** The send path's group commit: an insert outside any transaction, written with the others in flight. */
export interface MessageLogWriterPort {
  insert(message: NewMessageLog, options: InsertOptions): Promise<MessageLog | undefined>;
}
