import Joi from 'joi';
import { paginationQuerySchema, ulidSchema, type Pagination } from './common';
import { messageContentKeys, type TemplateMessageData, type TextMessageData } from './messages';

/*
 * The live-chat inbox (CONTRACT.md, "Conversations"): one conversation per customer (phone and/or user id,
 * linked) and channel account, holding every message the customer wrote and every message sent to them from that
 * account.
 */

export const CONVERSATION_STATUSES = ['open', 'closed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/** The `assignee` filter's word for conversations nobody is assigned to. */
export const UNASSIGNED = 'none';

/** A dashboard user's id as the gateway issues them. */
export const dashboardUserIdSchema = Joi.string().pattern(/^[A-Za-z0-9_-]{1,64}$/, 'user id');

export interface ConversationCustomer {
  /** Digits, country code first; null for a customer known by user id only. */
  phone: string | null;
  /** The business-scoped user id, as the upstream wrote it; null when none is known. */
  user_id: string | null;
  /** The profile name of their latest message. */
  name: string | null;
  username: string | null;
}

/** A conversation in the listing and on its own. */
export interface ConversationDto {
  id: string;
  channel_account_id: string;
  customer: ConversationCustomer;
  status: ConversationStatus;
  /** A dashboard user's id, or null. */
  assignee: string | null;
  /** When the customer's 24 h service window closes (UTC); null when it is closed. */
  open_until: string | null;
  unread_count: number;
  /** When the conversation was last marked read; null before. */
  read_at: string | null;
  last_activity_at: string;
  /** The text of the latest customer message (a caption, a reply's title), null for one without text. */
  last_message_text: string | null;
  created_at: string;
}

export interface ConversationList {
  conversations: ConversationDto[];
  pagination: Pagination;
}

/** A customer's message as the thread shows it: the modelled parts, or the raw upstream object in `raw`. */
export interface InboundMessageContent {
  text: string | null;
  media: {
    id: string | null;
    url: string | null;
    mime_type: string | null;
    caption: string | null;
    filename: string | null;
    sha256: string | null;
  } | null;
  location: {
    latitude: number | null;
    longitude: number | null;
    name: string | null;
    address: string | null;
    url: string | null;
  } | null;
  contacts: Array<Record<string, unknown>> | null;
  reaction: { message_id: string | null; emoji: string | null } | null;
  /** A quick-reply button's or an interactive message's answer. */
  reply: { type: string; id: string | null; title: string | null; payload: string | null } | null;
  /** The upstream message this one answers. */
  context_message_id: string | null;
  /** The upstream's message object, for a type not modelled above. */
  raw: Record<string, unknown> | null;
}

/** One message of a thread, either direction. */
export interface ConversationMessageDto extends InboundMessageContent {
  direction: MessageDirection;
  /** The upstream's message id (wamid): always for inbound, once sent for outbound. */
  provider_message_id: string | null;
  /** Outbound only: the message log's id (GET /api/v1/messages/{id}); null for inbound. */
  message_log_id: number | null;
  type: string;
  /** Outbound only: the message log's status; null for inbound. */
  status: string | null;
  /** Outbound only: a template's name and language; null otherwise. */
  template: { name: string; language: string } | null;
  error_message: string | null;
  created_at: string;
}

export interface ConversationMessages {
  /** Oldest first. */
  messages: ConversationMessageDto[];
  /** Pass as `before` for the older page; null when there is none. */
  next_before: string | null;
}

export interface ListConversationsQuery {
  channel_account_id?: string;
  status?: ConversationStatus;
  assignee?: string;
  q?: string;
  /** Only those with a customer message nobody has read. */
  unread?: boolean;
  /** `newest` (the default): newest activity first. `waiting`: unread first, then the longest silent first. */
  order?: ConversationOrder;
  page: number;
  per_page: number;
}

export const CONVERSATION_ORDERS = ['newest', 'waiting'] as const;
export type ConversationOrder = (typeof CONVERSATION_ORDERS)[number];

export const listConversationsQuerySchema = Joi.object<ListConversationsQuery>({
  channel_account_id: ulidSchema.description('Only this channel account'),
  status: Joi.string().valid(...CONVERSATION_STATUSES),
  assignee: Joi.alternatives()
    .try(Joi.string().valid(UNASSIGNED), dashboardUserIdSchema)
    .description(`A dashboard user's id, or \`${UNASSIGNED}\` for unassigned conversations`),
  q: Joi.string()
    .trim()
    .min(1)
    .max(100)
    // No control characters (a NUL is no text PostgreSQL can compare).
    .pattern(/^[^\p{Cc}]*$/u, 'text')
    .description("Part of the customer's phone, user id, name or username, or of a message's text"),
  unread: Joi.boolean().description('true: only conversations with unread customer messages'),
  order: Joi.string()
    .valid(...CONVERSATION_ORDERS)
    .description(
      '`newest` (default): newest activity first; `waiting`: those with unread messages first, then the longest silent first',
    ),
  ...paginationQuerySchema,
});

export const THREAD_PAGE_DEFAULT = 50;
export const THREAD_PAGE_MAX = 200;

export interface ConversationMessagesQuery {
  before?: string;
  limit: number;
}

export const conversationMessagesQuerySchema = Joi.object<ConversationMessagesQuery>({
  before: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,400}$/, 'cursor')
    .description("The previous page's `next_before`: messages older than its oldest"),
  limit: Joi.number().integer().min(1).max(THREAD_PAGE_MAX).default(THREAD_PAGE_DEFAULT),
});

export interface UpdateConversationRequest {
  status?: ConversationStatus;
  assignee?: string | null;
}

export const updateConversationSchema = Joi.object<UpdateConversationRequest>({
  status: Joi.string().valid(...CONVERSATION_STATUSES),
  assignee: dashboardUserIdSchema.allow(null).description("A dashboard user's id, or null to unassign"),
})
  .or('status', 'assignee')
  .description("Change a conversation's status or assignee");

/** POST /api/v1/conversations/{id}/messages: a text (inside the service window) or a template (any time). */
export type ConversationReplyRequest =
  { message_type: 'text'; data: TextMessageData } | { message_type: 'template'; data: TemplateMessageData };

export const conversationReplySchema = Joi.object<ConversationReplyRequest>(messageContentKeys).description(
  "A reply to the conversation's customer from its channel account",
);

/** POST /api/v1/conversations/{id}/read. */
export interface ConversationRead {
  conversation: ConversationDto;
  /** The read receipt for the latest customer message; null when the customer has written nothing. */
  receipt: {
    message_id: string;
    /** Whether the upstream took it; the conversation is marked read either way. */
    sent: boolean;
    /** Why the upstream refused it, or null. */
    error: string | null;
  } | null;
}
