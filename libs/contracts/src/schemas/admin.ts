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
}

export interface CreateChannelAccountRequest {
  phone_number_id: string;
  waba_id: string;
  display_phone_number: string;
  access_token: string;
  tier: MessagingTier;
  throughput_per_second?: number;
}
export const createChannelAccountSchema = Joi.object<CreateChannelAccountRequest>({
  phone_number_id: Joi.string()
    .pattern(/^\d{1,30}$/, 'digits')
    .required(),
  waba_id: Joi.string()
    .pattern(/^\d{1,30}$/, 'digits')
    .required(),
  display_phone_number: Joi.string().trim().min(3).max(30).required(),
  access_token: Joi.string().min(1).max(4096).required(),
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
