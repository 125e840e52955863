import Joi from 'joi';
import { paginationQuerySchema, ulidSchema, type Pagination } from './common';
import { MESSAGE_TYPES } from './messages';
import { userIdSchema } from './customer-address';
import { phoneSchema } from './phone';

/** What a message log may hold: the send API's types and the interactive messages conversation flows send. */
export const MESSAGE_LOG_TYPES = [...MESSAGE_TYPES, 'interactive'] as const;
export type MessageLogType = (typeof MESSAGE_LOG_TYPES)[number];

/** Published statuses plus `cancelled` for a cancelled scheduled message (CONTRACT.md). */
export const MESSAGE_STATUSES = [
  'queued',
  'scheduled',
  'sent',
  'delivered',
  'read',
  'failed',
  'cancelled',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * What a message said, as it was sent: a text's words, a template's name, language and components in the
 * upstream's format (header parameters with their media, body parameters, buttons), or a flow's interactive object.
 */
export type MessageContentDto =
  | { type: 'text'; text: string }
  | { type: 'template'; name: string; language: string; components: Array<Record<string, unknown>> }
  | { type: 'interactive'; interactive: Record<string, unknown> };

/** GET /api/v1/messages/{id}: the published message log plus the retry links of CONTRACT.md. */
export interface MessageLogDto {
  message_log_id: number;
  status: MessageStatus;
  /** The customer's phone; null for a send to a user id whose phone the product does not know. */
  to_phone: string | null;
  /** The customer's business-scoped user id for a send by user id, else null. */
  to_user_id: string | null;
  message_type: MessageLogType;
  provider_message_id: string | null;
  sent_at: string | null;
  /** Beyond the published table: when the status reports arrived, for a status timeline. */
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
  scheduled_at: string | null;
  cost_amount: number;
  cost_currency: string;
  error_message: string | null;
  /** The upstream's error code when the failure came from it, else null (CONTRACT.md, the network of late 2026). */
  error_code: number | null;
  /** The upstream holds the sent message for quality assessment (pacing), until a later status. */
  held: boolean;
  /** When a voice message was played (after read; the status stays read). */
  played_at: string | null;
  /** The upstream's pricing of the message (its latest status report's), null until one says; see cost_amount. */
  pricing: { model: string | null; type: string | null; category: string | null } | null;
  created_at: string;
  /** 0, or 1 for the automatic frequency-cap retry. */
  retry_count: number;
  /** The message this one retries, or null. */
  retry_of_message_log_id: number | null;
  /** The retry created for this message, or null until one exists. */
  retried_by_message_log_id: number | null;
  /** Not in the published table; lets a client tie a message to its campaign and sending account. */
  campaign_id: string | null;
  channel_account_id: string;
  /** Beyond the published table: the sending account's display number; null if the account is gone. */
  from_phone: string | null;
  /** Beyond the published table: what was sent. */
  content: MessageContentDto;
}

/** The filters of GET /api/v1/messages, shared by its CSV export. */
export interface MessageFilterQuery {
  status?: MessageStatus;
  to_phone?: string;
  to_user_id?: string;
  campaign_id?: string;
  channel_account_id?: string;
  message_type?: MessageLogType;
  created_from?: Date;
  created_to?: Date;
  /** Our id of one message (message_log_id). */
  message_id?: number;
  /** The upstream's id of one message (provider_message_id, the wamid). */
  wamid?: string;
}

export interface ListMessagesQuery extends MessageFilterQuery {
  page: number;
  per_page: number;
}

const messageFilterFields = {
  status: Joi.string().valid(...MESSAGE_STATUSES),
  to_phone: phoneSchema,
  to_user_id: userIdSchema,
  campaign_id: ulidSchema,
  channel_account_id: ulidSchema,
  message_type: Joi.string().valid(...MESSAGE_LOG_TYPES),
  created_from: Joi.date().iso().description('Created at or after this instant (ISO 8601)'),
  created_to: Joi.date().iso().description('Created before this instant (ISO 8601)'),
  message_id: Joi.number()
    .integer()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .description('Only the message with this message_log_id'),
  wamid: Joi.string()
    .trim()
    .min(1)
    .max(512)
    .description("Only the message with this upstream id (provider_message_id, the upstream's wamid)"),
};

/** GET /api/v1/messages query; `to_phone` is normalized so `+966 50…` finds `96650…`. */
export const listMessagesQuerySchema = Joi.object<ListMessagesQuery>({
  ...messageFilterFields,
  ...paginationQuerySchema,
});

/** GET /api/v1/messages/export query: the list's filters, every matching message (no pages). */
export const exportMessagesQuerySchema = Joi.object<MessageFilterQuery>(messageFilterFields);

/** GET /api/v1/messages answer: newest first. */
export interface MessageListDto {
  messages: MessageLogDto[];
  pagination: Pagination;
}

/** POST /api/v1/messages/{id}/cancel answers the message log, now `cancelled`, as Stripe answers the object. */
export type CancelMessageDto = MessageLogDto;

/** The columns of GET /api/v1/messages/export, in order. */
export const MESSAGE_EXPORT_COLUMNS = [
  'id',
  'created_at',
  'channel_account_id',
  'from',
  'to',
  'type',
  'template',
  'language',
  'text_or_parameters',
  'status',
  'sent_at',
  'delivered_at',
  'read_at',
  'failed_at',
  'error',
  'campaign_id',
  'wamid',
] as const;
