import Joi from 'joi';
import { ulidSchema } from './common';
import { languageCodeSchema } from './messages';
import {
  placeholderValueSchema,
  recipientListDocumentSchema,
  recipientListSchema,
  type CampaignRecipientInput,
} from './recipient-list';
import { scheduledAtSchema, timezoneSchema } from './scheduling';
import { MEDIA_TYPES, type MediaType } from './send-components';

export const CAMPAIGN_NAME_MAX_LENGTH = 120;

export const CAMPAIGN_STATUSES = [
  'preparing',
  'pending',
  'scheduled',
  'processing',
  'throttled',
  'completed',
  'cancelled',
  'failed',
  // Beyond the published statuses: held by POST /api/v1/campaigns/{id}/pause until resumed.
  'paused',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Statuses in which a campaign is sending, so pause is allowed; resume takes `paused` back to sending. */
export const PAUSABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['processing', 'throttled'];
/** Statuses after which nothing more happens to a campaign (a retry starts it again). */
export const FINAL_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['completed', 'cancelled', 'failed'];

/**
 * Statuses in which a campaign is sending (or paused mid-send), so the console's stop is allowed: it ends
 * `cancelled` ("Cancelled, or stopped mid-send" in the published statuses).
 */
export const STOPPABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['processing', 'throttled', 'paused'];
/** `error_message` of a recipient a stopped campaign never handed to messaging. */
export const CAMPAIGN_STOPPED_RECIPIENT_ERROR =
  'CAMPAIGN_STOPPED: the campaign was stopped before this recipient was sent';

/** Statuses in which nothing has been sent, so cancel is allowed (CONTRACT.md). */
export const CANCELLABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['pending', 'scheduled'];
/** Statuses from which failed recipients may be retried (CONTRACT.md). */
export const RETRYABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['completed', 'failed'];

export interface HeaderMediaInput {
  type: MediaType;
  link?: string;
  id?: string;
}

export interface CreateCampaignRequest {
  channel_account_id: string;
  message_type: 'template';
  template_name: string;
  template_language?: string;
  template_params?: string[];
  recipients: CampaignRecipientInput[];
  campaign_name?: string | null;
  scheduled_at?: string;
  timezone?: string;
  split_across_days: boolean;
  header_media?: HeaderMediaInput;
}

export const headerMediaSchema = Joi.object<HeaderMediaInput>({
  type: Joi.string()
    .valid(...MEDIA_TYPES)
    .required(),
  link: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .max(2048),
  id: Joi.string().max(256),
})
  .xor('link', 'id')
  .description("Header media for every recipient; default the template's header_sample_media_url");

/** POST /api/v1/campaigns. */
export const createCampaignSchema = Joi.object<CreateCampaignRequest>({
  channel_account_id: ulidSchema.required().description('Sender account ULID'),
  message_type: Joi.string().valid('template').required(),
  template_name: Joi.string().max(512).required(),
  template_language: languageCodeSchema.description('Default: the first template of that name'),
  template_params: Joi.array()
    .items(placeholderValueSchema)
    .max(100)
    .description('Values for the placeholders in component order: header text, body, buttons'),
  recipients: recipientListSchema,
  campaign_name: Joi.string().max(CAMPAIGN_NAME_MAX_LENGTH).allow(null),
  scheduled_at: scheduledAtSchema,
  timezone: timezoneSchema,
  split_across_days: Joi.boolean()
    .default(false)
    .description("Divide the list into daily parts when it exceeds the number's remaining daily capacity"),
  header_media: headerMediaSchema,
}).description('Create a bulk template campaign');

/** The same request for the OpenAPI document: `recipients` with its item schema (see recipient-list.ts). */
export const createCampaignDocumentSchema = createCampaignSchema.keys({
  recipients: recipientListDocumentSchema,
});

/** One part of a split campaign in the create answer. */
export interface CampaignPartDto {
  campaign_id: string;
  name: string | null;
  part_number: number;
  status: CampaignStatus;
  requested_count: number;
  scheduled_at: string | null;
}

/** 202 answer of POST /api/v1/campaigns; a split answer's top-level fields are the first part's. */
export interface CampaignCreatedDto {
  campaign_id: string;
  name: string | null;
  status: CampaignStatus;
  message_type: 'template';
  requested_count: number;
  total_count: number;
  scheduled_at: string | null;
  created_at: string;
  campaign_group_id?: string;
  parts_total?: number;
  parts?: CampaignPartDto[];
}

/**
 * GET /api/v1/campaigns/{id}: the published fields, then fields the published API does not show, which a
 * client of a split campaign needs to find its group and the numbers the create answer gave.
 */
export interface CampaignDto {
  campaign_id: string;
  name: string | null;
  status: CampaignStatus;
  message_type: 'template';
  total_count: number;
  sent_count: number;
  failed_count: number;
  scheduled_at: string | null;
  created_at: string;
  /** Why a `failed` campaign failed; null otherwise. */
  failure_reason: string | null;
  requested_count: number;
  channel_account_id: string;
  template_name: string;
  template_language: string | null;
  campaign_group_id: string | null;
  part_number: number | null;
  parts_total: number | null;
  /**
   * What its deliverable recipients cost at the rate card's prices, reckoned when the list was prepared; null
   * while `preparing`, and for a campaign prepared before estimates were kept.
   */
  estimated_cost: number | null;
  /**
   * What its messages cost so far (the sum of their `cost_amount`), 0 before sending. GET /campaigns/{id} gives
   * it at most COST_REFRESH_MS old; the list, and the GET while messaging cannot answer, the figure last given.
   */
  cost_amount: number;
  /** The currency of both: the rate card's (the one of the estimate, once there is one). */
  cost_currency: string;
}

/** POST /api/v1/campaigns/{id}/cancel answer: the published `success`, plus the campaign it concerns. */
export interface CampaignCancelledDto {
  success: true;
  campaign_id: string;
  status: 'cancelled';
}

/** POST /api/v1/campaigns/{id}/retry answer: the campaign, and how many failed recipients were queued again. */
export interface CampaignRetryDto extends CampaignDto {
  retried_count: number;
}

/** `error.details` of 429 MESSAGING_TIER_LIMIT_EXCEEDED; `requested` is the number of recipients submitted. */
export interface MessagingTierLimitDetails {
  daily_limit: number;
  used_today: number;
  remaining: number;
  requested: number;
}

/** One part of the plan a dry run answers. */
export interface CampaignPlanPartDto {
  part_number: number;
  requested_count: number;
  /** When the part is planned to start (null: at once); later parts recheck capacity when they run. */
  planned_at: string | null;
}

/** POST /api/v1/campaigns?dry_run=true: what a create would do, without creating anything. */
export interface CampaignPlanDto {
  dry_run: true;
  requested_count: number;
  capacity: { daily_limit: number | null; used_today: number; remaining: number | null };
  split: boolean;
  parts: CampaignPlanPartDto[];
  /** The sending number's throughput toward the upstream network, messages per second. */
  throughput_per_second: number;
  /** When the last part would finish at that throughput, if capacity holds as planned. */
  estimated_finish_at: string;
  /** Recipients on the tenant's opt-out list: the campaign skips them (they are not in total_count). */
  opted_out_count: number;
  /**
   * What the deliverable recipients (no duplicates, invalid rows or opt-outs) would cost at the rate card's
   * price for the template's category in each one's market, in `cost_currency`, to 4 decimals.
   */
  estimated_cost: number;
  /** The rate card's currency. */
  cost_currency: string;
}

export interface DryRunQuery {
  dry_run: boolean;
}

/** Query of POST /api/v1/campaigns. */
export const createCampaignQuerySchema = Joi.object<DryRunQuery>({
  dry_run: Joi.boolean().default(false).description('Validate and answer the plan without creating anything'),
});
