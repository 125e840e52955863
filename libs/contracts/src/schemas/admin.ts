import Joi from 'joi';
import { MESSAGING_TIERS, type MessagingTier } from './common';

/** Plan names are configuration (see the gateway's RATE_LIMIT_PLANS); only their shape is checked here. */
export const planNameSchema = Joi.string().pattern(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'plan name');

export interface CreateTenantRequest {
  name: string;
  plan?: string;
}
export const createTenantSchema = Joi.object<CreateTenantRequest>({
  name: Joi.string().trim().min(1).max(200).required(),
  plan: planNameSchema,
});

export interface UpdateTenantRequest {
  plan: string;
}
export const updateTenantSchema = Joi.object<UpdateTenantRequest>({ plan: planNameSchema.required() });

export interface TenantDto {
  tenant_id: number;
  name: string;
  plan: string;
  created_at: string;
}

export interface ApiKeyIssuedDto {
  key_id: string;
  api_key: string;
  tenant_id: number;
  created_at: string;
  /** Only in the tenant's own answer (POST /api/v1/api-keys): the key's name and role (null: full access). */
  name?: string | null;
  role?: 'viewer' | 'agent' | 'admin' | 'owner' | null;
}

/** DELETE /admin/v1/api-keys/{key_id} answer (revoking twice answers the same). */
export interface ApiKeyRevokedDto {
  key_id: string;
  revoked: true;
}

export interface CreateChannelAccountRequest {
  phone_number_id: string;
  waba_id: string;
  display_phone_number: string;
  access_token: string;
  tier: MessagingTier;
  throughput_per_second?: number;
  /** The business portfolio the number belongs to; its daily limit is shared by all its numbers. */
  business_id?: string;
}
/**
 * The upstream's ids of a phone number and a business account: digits at the upstream network, but any
 * URL-safe token is taken, so another implementation of the wire (a test double, a BSP) can name its own.
 */
export const UPSTREAM_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export const createChannelAccountSchema = Joi.object<CreateChannelAccountRequest>({
  phone_number_id: Joi.string().pattern(UPSTREAM_ID_PATTERN, 'upstream id').required(),
  waba_id: Joi.string().pattern(UPSTREAM_ID_PATTERN, 'upstream id').required(),
  display_phone_number: Joi.string().trim().min(3).max(30).required(),
  access_token: Joi.string().min(1).max(4096).required(),
  business_id: Joi.string()
    .pattern(UPSTREAM_ID_PATTERN, 'upstream id')
    .description('The business portfolio; default the waba_id. Its numbers share one daily limit and tier'),
  tier: Joi.string()
    .valid(...MESSAGING_TIERS)
    .default('TIER_250'),
  // The upstream network grants a number 80 and, upgraded, 1,000 messages per second; more is allowed for an
  // upstream (or sandbox) that takes more.
  throughput_per_second: Joi.number()
    .integer()
    .min(1)
    .max(10_000)
    .description('Messages per second toward the upstream network; default 80'),
});

/** A channel account as operators see it; the access token never leaves the messaging service. */
export interface ChannelAccountDto {
  channel_account_id: string;
  tenant_id: number;
  phone_number_id: string;
  waba_id: string;
  /** The business portfolio: every number of it shares one daily limit and its tier. */
  business_id: string;
  /** The digits of the number as given. */
  display_phone_number: string;
  tier: MessagingTier;
  throughput_per_second: number;
  active: boolean;
  created_at: string;
  /** On connect only: the templates fetched from the upstream network and stored. */
  templates_synced?: number;
  /** On connect only: whether the upstream took the webhook subscription (a template sync tries again). */
  webhooks_subscribed?: boolean;
}

/** GET /admin/v1/dead-letters/{queue}: how many parked messages to show (they stay parked). */
export const showDeadLettersQuerySchema = Joi.object<{ limit: number }>({
  limit: Joi.number().integer().min(1).max(100).default(10),
});

/** POST /admin/v1/dead-letters/{queue}/replay: how many to replay, by default every one parked. */
export const replayDeadLettersQuerySchema = Joi.object<{ limit: number }>({
  limit: Joi.number().integer().min(1).max(100_000).default(100_000),
});

/** A consumer queue and the messages parked in its dead-letter queue. */
export interface DeadLetterQueueDto {
  queue: string;
  service: string;
  dead_letters: number;
}

/** One parked message as an operator sees it. */
export interface DeadLetterDto {
  message_id: string | null;
  /** The event's own routing key, which the consumer dispatches on. */
  routing_key: string | null;
  /** Attempts made before it was parked. */
  attempts: number | null;
  /** The last failure's message. */
  error: string | null;
  /** When it was first published (to the second), if the publisher said. */
  published_at: string | null;
  /** Times it was replayed before. */
  replays: number;
  /** The JSON payload, or the raw text when it is not JSON. */
  payload: unknown;
}

/** GET /admin/v1/dead-letters/{queue}: the count and the first parked messages. */
export interface DeadLettersDto extends DeadLetterQueueDto {
  messages: DeadLetterDto[];
}

/** POST /admin/v1/dead-letters/{queue}/replay answer. */
export interface DeadLettersReplayedDto {
  queue: string;
  replayed: number;
  remaining: number;
}

/** GET /api/v1/channel-accounts: a sending number as its tenant sees it (the dashboard's number list). */
export interface ChannelAccountSummaryDto {
  /** The API ID a send names as `channel_account_id`. */
  channel_account_id: string;
  phone_number_id: string;
  waba_id: string;
  /** The business portfolio, whose numbers share one daily limit (`capacity` is the portfolio's). */
  business_id: string;
  display_phone_number: string;
  status: 'active' | 'inactive';
  tier: MessagingTier;
  /** The latest quality event the upstream reported (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE…); null for none. */
  quality_event: string | null;
  throughput_per_second: number;
  webhooks_subscribed: boolean;
  /** Today's tier capacity: the rolling 24 h window; daily_limit and remaining null when unlimited. */
  capacity: { daily_limit: number | null; used_today: number; remaining: number | null };
  created_at: string;
}
