import type { MessagePricing } from '@bm/platform';
import type { MessageLogType, MessageStatus } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

/** A message log as the domain sees it. */
export interface MessageLog {
  id: number;
  tenantId: number;
  channelAccountId: string;
  /** The customer's address: their phone's digits, or their user id for a send by user id (see `toUserId`). */
  toPhone: string;
  /** The customer's business-scoped user id for a send by user id; null for a send by phone. */
  toUserId: string | null;
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
  /** The upstream's error code of the failure (or of the refusal being retried); null when none came from it. */
  errorCode: number | null;
  errorMessage: string | null;
  /** The upstream holds the sent message for quality assessment (pacing) until a later status report. */
  held: boolean;
  /** When a voice message was played (after read; the status stays read). */
  playedAt: Date | null;
  /** The upstream's pricing of the message, from its latest status report that carried one; null before. */
  pricing: MessagePricing | null;
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
  /** The inbox conversation it was sent into (the customer had one on the account when it was written). */
  conversationId?: string | null;
  /** The sending account's display number, from the API's reads (null elsewhere, or when the account is gone). */
  fromPhone?: string | null;
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
      | 'retryCount'
      | 'retryOfMessageLogId'
      | 'campaignId'
      | 'campaignRecipientId'
      | 'campaignRecipientAttempt'
      | 'toUserId'
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
  /** The recipient's user id, for a recipient given by user id. */
  toUserId: string | null;
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
  /** The upstream took it and holds it for quality assessment (`held_for_quality_assessment`). */
  held: boolean;
}

/** A message's status event as it is sent after its commit (MessagingDeps.statusEvents). */
export interface StatusEventToSend {
  eventId: string;
  event: Record<string, unknown>;
  /** The trace the status event continues. */
  traceparent?: string;
}

/** A forward move of one message (the status rules allowed it), with the event that reports it. */
export interface ForwardMove extends StatusEventToSend {
  id: number;
  status: Extract<MessageStatus, 'sent' | 'delivered' | 'read'>;
  /** The statuses it may still move from: the UPDATE is conditional, as a single report's is. */
  expected: MessageStatus[];
  at: Date;
}

export interface MessageListFilter {
  messageId?: number;
  wamid?: string;
  status?: string;
  toPhone?: string;
  toUserId?: string;
  campaignId?: string;
  channelAccountId?: string;
  messageType?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

/** Message logs: written with their delivery command, claimed for a send, moved through their statuses. */
/** Writes of message logs: new messages and their moves between statuses. */
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
  /** Records which message retries a failed one (so that it is retried once). */
  linkRetry(tx: Tx, failedId: number, retryId: number): Promise<void>;
  /** Moves one message to `move.status` when its status is still one of `expected`; the new row, or undefined. */
  moveTo(
    tx: Tx,
    id: number,
    expected: readonly MessageStatus[],
    move: StatusMove,
  ): Promise<MessageLog | undefined>;
}

/** The send path's group commit: an insert outside any transaction, written with the others in flight. */
export interface MessageLogWriterPort {
  insert(message: NewMessageLog, options: InsertOptions): Promise<MessageLog | undefined>;
}
