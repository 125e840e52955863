import type { ConversationStatus, ListConversationsQuery } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

/** A conversation as stored, with the customer's service window (their last message on the account). */
export interface Conversation {
  id: string;
  tenantId: number;
  channelAccountId: string;
  /** The address the customer's window and messages are kept under: their phone when known, else their user id. */
  customerKey: string;
  customerPhone: string | null;
  customerUserId: string | null;
  customerName: string | null;
  username: string | null;
  status: ConversationStatus;
  assignee: string | null;
  lastActivityAt: Date;
  lastInboundMessageId: string | null;
  lastMessageText: string | null;
  unreadCount: number;
  readAt: Date | null;
  createdAt: Date;
  /** The service window's last customer message on this account; null when none is kept. */
  windowLastInboundAt: Date | null;
}

/** A customer's message, as it lands in their conversation. */
export interface ConversationTouch {
  tenantId: number;
  channelAccountId: string;
  customerKey: string;
  phone: string | null;
  userId: string | null;
  name: string | null;
  username: string | null;
  messageId: string;
  text: string | null;
  at: Date;
}

/** Where a thread's page starts: strictly older than this message. */
export interface ThreadCursor {
  /** Microseconds since the epoch (the database's precision). */
  atMicros: bigint;
  direction: 'inbound' | 'outbound';
  /** A customer message's order key, or the message log id of ours. */
  id: string;
}

interface ThreadEntryBase {
  at: Date;
  atMicros: bigint;
}
export interface InboundThreadEntry extends ThreadEntryBase {
  direction: 'inbound';
  providerMessageId: string;
  /**
   * Its place among the customer's messages of the same instant (the upstream's times are whole seconds): the
   * order they reached us (the ingress event's ULID), then the upstream id.
   */
  orderKey: string;
  type: string;
  body: unknown;
}
export interface OutboundThreadEntry extends ThreadEntryBase {
  direction: 'outbound';
  messageLogId: number;
  providerMessageId: string | null;
  type: string;
  content: Record<string, unknown>;
  status: string;
  errorMessage: string | null;
}
export type ThreadEntry = InboundThreadEntry | OutboundThreadEntry;

/** The live-chat inbox's conversations and their threads. */
export interface ConversationStore {
  /**
   * Records a customer's stored message in their conversation (created open with the first) and points the
   * message at it; returns the conversation's id.
   */
  touchForInbound(tx: Tx, touch: ConversationTouch): Promise<string>;
  /**
   * Moves a customer's conversations (on every account of the tenant) from one key address to another, merging
   * each into the one already kept under the new address.
   */
  rekey(tx: Tx, tenantId: number, fromKey: string, toKey: string): Promise<void>;
  /** Opens the customer's conversation on the account again; returns its id (null when there is none). */
  reopen(tx: Tx, channelAccountId: string, customerKey: string): Promise<string | null>;
  find(tenantId: number, id: string): Promise<Conversation | undefined>;
  /** The conversation of that id as the transaction sees it (after its own changes). */
  findInTx(tx: Tx, id: string): Promise<Conversation | undefined>;
  list(tenantId: number, query: ListConversationsQuery): Promise<{ rows: Conversation[]; total: number }>;
  /** Changes the given fields; undefined when the tenant has no such conversation. */
  update(
    tx: Tx,
    tenantId: number,
    id: string,
    changes: { status?: ConversationStatus; assignee?: string | null },
  ): Promise<Conversation | undefined>;
  /**
   * The upstream id of the customer's latest message in the conversation: by the upstream's time, then (same
   * second) by the order the messages reached us.
   */
  latestInboundMessageId(conversationId: string): Promise<string | null>;
  /** No unread messages left, read now. */
  markRead(tx: Tx, tenantId: number, id: string): Promise<Conversation | undefined>;
  /** A reply from the inbox is activity: the conversation moves up the listing; false when it moved nothing. */
  touchActivity(tx: Tx, id: string, at: Date): Promise<boolean>;
  /** The thread's latest `limit` messages (both directions) older than the cursor, newest first. */
  thread(conversation: Conversation, before: ThreadCursor | undefined, limit: number): Promise<ThreadEntry[]>;
}
