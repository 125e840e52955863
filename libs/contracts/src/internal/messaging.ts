import Joi from 'joi';
import { ulidSchema } from '../schemas/common';
import { userIdSchema } from '../schemas/customer-address';
import { languageCodeSchema } from '../schemas/messages';
import type { TemplateDto } from '../schemas/templates';
import { internalEndpoint } from './endpoint';

/*
 * Messaging's internal endpoints (not on the public route table): the campaign service asks for the template it
 * would send, the number's tier capacity and holds on it, what a campaign's messages cost so far, and sets
 * messaging's copy of an opt-out; webhook-ingress asks who owns an upstream number.
 */

/** A sending number's tier capacity over the rolling 24 h window; daily_limit and remaining null when unlimited. */
export interface TierCapacityDto {
  daily_limit: number | null;
  used_today: number;
  remaining: number | null;
}

/** The template a campaign would send (checked like a single send's) and the number's throughput. */
export interface CampaignTemplateDto {
  template: TemplateDto;
  throughput_per_second: number;
}

export interface CampaignTemplateQuery {
  name: string;
  language?: string;
}

const campaignTemplate = internalEndpoint<{ id: string }, CampaignTemplateQuery, CampaignTemplateDto>({
  method: 'GET',
  path: '/internal/v1/channel-accounts/:id/campaign-template',
  input: Joi.object<CampaignTemplateQuery>({
    name: Joi.string().max(512).required(),
    language: languageCodeSchema,
  }),
});

const capacity = internalEndpoint<{ id: string }, undefined, TierCapacityDto>({
  method: 'GET',
  path: '/internal/v1/channel-accounts/:id/capacity',
});

/** Holds up to `count` slots for `reference`, replacing its earlier hold; all or nothing unless `partial`. */
export interface CapacityReservationRequest {
  reference: string;
  count: number;
  partial: boolean;
}

export interface CapacityReservationDto {
  granted: number;
  capacity: TierCapacityDto;
}

const reserveCapacity = internalEndpoint<{ id: string }, CapacityReservationRequest, CapacityReservationDto>({
  method: 'POST',
  path: '/internal/v1/channel-accounts/:id/capacity/reservations',
  input: Joi.object<CapacityReservationRequest>({
    reference: Joi.string().min(1).max(200).required(),
    count: Joi.number().integer().min(0).max(10_000_000).required(),
    partial: Joi.boolean().default(false),
  }),
});

const releaseCapacity = internalEndpoint<{ id: string; reference: string }, undefined, { released: true }>({
  method: 'DELETE',
  path: '/internal/v1/channel-accounts/:id/capacity/reservations/:reference',
});

/** Messaging's copy of one opt-out, newest version wins; single MARKETING sends are checked against it. */
export interface OptOutCopyRequest {
  opted_out: boolean;
  version: number;
}

const setOptOutCopy = internalEndpoint<
  { phone: string },
  OptOutCopyRequest,
  { phone: string; opted_out: boolean }
>({
  method: 'PUT',
  path: '/internal/v1/opt-outs/:phone',
  // The customer's address: a phone's digits or a user id.
  params: Joi.object<{ phone: string }>({
    phone: Joi.alternatives(Joi.string().pattern(/^\d{1,15}$/), userIdSchema).required(),
  }),
  input: Joi.object<OptOutCopyRequest>({
    opted_out: Joi.boolean().required(),
    version: Joi.number().integer().min(1).required(),
  }),
});

/** Which tenant and account own an upstream phone_number_id; 404 CHANNEL_ACCOUNT_NOT_FOUND when none does. */
export interface ChannelAccountOwnerDto {
  channel_account_id: string;
  tenant_id: number;
}

const accountByPhoneNumber = internalEndpoint<{ phoneNumberId: string }, undefined, ChannelAccountOwnerDto>({
  method: 'GET',
  path: '/internal/v1/channel-accounts/by-phone-number/:phoneNumberId',
});

/** What a campaign's messages cost so far: the sum of their `cost_amount` in one currency (0 until priced). */
export interface CampaignCostDto {
  campaign_id: string;
  cost_amount: number;
  cost_currency: string;
}

export interface CampaignCostQuery {
  /** The currency the campaign's estimate is in; messages priced in another are not counted. */
  currency: string;
}

const campaignCost = internalEndpoint<{ id: string }, CampaignCostQuery, CampaignCostDto>({
  method: 'GET',
  path: '/internal/v1/campaigns/:id/cost',
  params: Joi.object<{ id: string }>({ id: ulidSchema.required() }),
  input: Joi.object<CampaignCostQuery>({
    currency: Joi.string()
      .pattern(/^[A-Z]{3}$/)
      .required(),
  }),
});

/** Messaging's internal endpoints, by what they do. */
export const MESSAGING_ENDPOINTS = {
  campaignTemplate,
  capacity,
  reserveCapacity,
  releaseCapacity,
  campaignCost,
  setOptOutCopy,
  accountByPhoneNumber,
} as const;
