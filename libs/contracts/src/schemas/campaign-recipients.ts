import Joi from 'joi';
import { paginationQuerySchema, type Pagination } from './common';

export const RECIPIENT_STATUSES = ['pending', 'sent', 'failed'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** `error_message` of a recipient whose phone is invalid (CONTRACT.md). */
export const INVALID_PHONE_RECIPIENT_ERROR = 'invalid phone number';

/** `error_message` of a recipient whose `user_id` is not a business-scoped user id. */
export const INVALID_USER_ID_RECIPIENT_ERROR = 'invalid user id';

/** `error_message` of a recipient whose name or variables hold an unpaired UTF-16 surrogate (no character). */
export const INVALID_TEXT_RECIPIENT_ERROR = 'invalid text: unpaired UTF-16 surrogate in name or variables';

export interface CampaignRecipientDto {
  /** Normalized digits, or the phone as submitted when it was invalid; null for a recipient given by user id. */
  phone: string | null;
  /** Only on a recipient given by user id: their business-scoped user id (a malformed one as submitted). */
  user_id?: string;
  name: string | null;
  status: RecipientStatus;
  /** The message log id's digits, as a string, or null when not sent (CONTRACT.md). */
  message_log_id: string | null;
  error_message: string | null;
  sent_at: string | null;
}

export interface CampaignRecipientsQuery {
  page: number;
  per_page: number;
  status?: RecipientStatus;
}

/** GET /api/v1/campaigns/{id}/recipients query: page default 1, per_page default 50, max 100. */
export const campaignRecipientsQuerySchema = Joi.object<CampaignRecipientsQuery>({
  ...paginationQuerySchema,
  status: Joi.string().valid(...RECIPIENT_STATUSES),
});

export interface CampaignRecipientListDto {
  campaign_id: string;
  recipients: CampaignRecipientDto[];
  pagination: Pagination;
}

/** The columns of GET /api/v1/campaigns/{id}/recipients/export, in order. */
export const RECIPIENT_EXPORT_COLUMNS = [
  'recipient_id',
  'phone',
  'user_id',
  'name',
  'status',
  'error',
  'message_log_id',
  'sent_at',
  'attempt',
] as const;
