import Joi from 'joi';
import type { InboundMedia } from '../events';
import { ulidSchema } from './common';
import { namesTheCustomer } from './customer-address';
import { domainEventSchema, inboundMediaSchema, isoInstantSchema, tenantIdSchema } from './domain-events';

/*
 * Items webhook-ingress publishes, one per upstream status, message or account change, after checking the
 * signature and storing the raw POST. They name the upstream account (waba_id, phone_number_id); tenant_id is
 * null when ingress cannot tell the tenant, and the consumer that owns the channel accounts resolves it.
 */

export interface InboundItemBase {
  event_id: string;
  tenant_id: number | null;
  /** The upstream's timestamp of the item (Unix seconds converted to ISO 8601 UTC). */
  occurred_at: string;
  /**
   * When webhook-ingress received the body (ISO 8601 UTC, milliseconds): orders two items the upstream dated in the
   * same second (a customer's stop and resume, say). Absent from the items of a producer that predates it.
   */
  received_at?: string;
  waba_id: string;
  /** Absent on account-level changes, which carry no metadata. */
  phone_number_id: string | null;
}

const inboundBaseKeys = {
  event_id: ulidSchema.required(),
  tenant_id: tenantIdSchema.allow(null).required(),
  occurred_at: isoInstantSchema.required(),
  received_at: isoInstantSchema,
  waba_id: Joi.string().required(),
  phone_number_id: Joi.string().allow(null).required(),
};

const nullableString = Joi.string().allow(null).required();
const inboundSchema = <T>(keys: Joi.PartialSchemaMap<T>): Joi.ObjectSchema<T> =>
  domainEventSchema<T>(keys, inboundBaseKeys);

export interface UpstreamError {
  code: number;
  title: string;
  message?: string;
  details?: string;
}

/** What a status report says of the message's price. */
export interface InboundPricing {
  pricing_model: string | null;
  type: string | null;
  category: string | null;
}

/** A delivery receipt: deduplicate on (provider_message_id, status); order is not guaranteed. */
export interface InboundStatusItem extends InboundItemBase {
  provider_message_id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | 'played';
  /** The customer's number as the upstream wrote it; null when it sent none (the message id is what matters). */
  recipient_id: string | null;
  errors: UpstreamError[];
  pricing_category: string | null;
  /**
   * The report's `pricing` (per-message pricing, WIRE-2026.md): model (`PMP`, or `CBP` before July 2025), type
   * (`regular` is charged) and category; null when the report carries none (absent from an older ingress).
   */
  pricing?: InboundPricing | null;
  conversation_id: string | null;
  /**
   * The `biz_opaque_callback_data` the send carried, echoed by the upstream in every status of the message: it
   * names the send attempt, so a report can be tied to a send whose answer (and wamid) never arrived. Null or
   * absent when the send carried none.
   */
  biz_opaque_callback_data?: string | null;
}
export const inboundStatusSchema = inboundSchema<InboundStatusItem>({
  provider_message_id: Joi.string().required(),
  status: Joi.string().valid('sent', 'delivered', 'read', 'failed', 'played').required(),
  recipient_id: nullableString,
  errors: Joi.array()
    .items(
      Joi.object<UpstreamError>({
        code: Joi.number().integer().required(),
        title: Joi.string().allow('').required(),
        message: Joi.string().allow(''),
        details: Joi.string().allow(''),
      }).unknown(true),
    )
    .required(),
  pricing_category: nullableString,
  pricing: Joi.object<InboundPricing>({
    pricing_model: Joi.string().allow(null),
    type: Joi.string().allow(null),
    category: Joi.string().allow(null),
  })
    .unknown(true)
    .allow(null),
  conversation_id: nullableString,
  biz_opaque_callback_data: Joi.string().allow(null),
});

/**
 * The status items of the webhooks ingress received together (within its send linger), in one message
 * (`inbound.statuses`): one publish and one delivery for all of them. Each item is an `inbound.status` with its own
 * event id, checked with its own schema and applied on its own; the batch's event id only names the message.
 */
export interface InboundStatusesBatch {
  event_id: string;
  occurred_at: string;
  statuses: InboundStatusItem[];
}
/** Most status items in one batch message. */
export const MAX_STATUSES_PER_BATCH = 500;
export const inboundStatusesSchema = Joi.object<InboundStatusesBatch>({
  event_id: ulidSchema.required(),
  occurred_at: isoInstantSchema.required(),
  statuses: Joi.array().items(Joi.object().unknown(true)).min(1).max(MAX_STATUSES_PER_BATCH).required(),
}).unknown(true);

/** A customer message: deduplicate on message_id. */
export interface InboundMessageItem extends InboundItemBase {
  message_id: string;
  /** The customer's phone (`messages[].from`); null for a customer the upstream names by user id only. */
  from: string | null;
  /**
   * The customer's business-scoped user id (`messages[].from_user_id`), as written; for a `system` message without
   * it, `system.user_id` (their new id); null when absent.
   */
  from_user_id: string | null;
  /** The customer's username (`contacts[].profile.username`), display data only; null when absent. */
  username: string | null;
  name: string | null;
  type: string;
  text: string | null;
  media: InboundMedia | null;
  /** Payload of a template quick-reply button or an interactive reply id. */
  button_payload: string | null;
  /** The upstream message this one replies to. */
  context_message_id: string | null;
  /** The upstream message object as received, for flows and forwarding. */
  raw: Record<string, unknown>;
}
export const inboundMessageSchema = inboundSchema<InboundMessageItem>({
  message_id: Joi.string().required(),
  // A customer is known by the digits of their number or by their user id (one at least): a phone without a
  // digit is no one to answer or opt out. The 2026 fields are optional: items of an older ingress are still read.
  from: Joi.string()
    .pattern(/\d/)
    .message('{{#label}} must contain the digits of a phone number')
    .allow(null),
  from_user_id: Joi.string().allow(null),
  username: Joi.string().allow(null),
  name: nullableString,
  type: Joi.string().required(),
  text: nullableString.allow(''),
  media: inboundMediaSchema.allow(null).required(),
  button_payload: nullableString,
  context_message_id: nullableString,
  raw: Joi.object().unknown(true).required(),
}).custom(namesTheCustomer);

/** A `message_template_status_update`. */
export interface InboundTemplateStatusItem extends InboundItemBase {
  /** Upstream template id, as a string: the numbers exceed what JSON consumers can hold exactly. */
  template_id: string;
  name: string;
  language: string;
  /** Upstream event: APPROVED, REJECTED, PENDING, PAUSED, DISABLED, REINSTATED, … */
  event: string;
  reason: string | null;
  category: string | null;
}
export const inboundTemplateStatusSchema = inboundSchema<InboundTemplateStatusItem>({
  template_id: Joi.string().required(),
  name: Joi.string().required(),
  language: Joi.string().required(),
  event: Joi.string().required(),
  reason: nullableString,
  category: nullableString,
});

/** A `phone_number_quality_update`: the number's messaging tier may have changed. */
export interface InboundPhoneQualityItem extends InboundItemBase {
  display_phone_number: string;
  event: string;
  /** Upstream tier, e.g. TIER_10K; null when the update carries none. */
  current_limit: string | null;
}
export const inboundPhoneQualitySchema = inboundSchema<InboundPhoneQualityItem>({
  display_phone_number: Joi.string().required(),
  event: Joi.string().required(),
  current_limit: nullableString,
});

/** Any other account-level change (`account_update`, `account_alerts`, template quality…), passed on as given. */
export interface InboundAccountUpdateItem extends InboundItemBase {
  /** The upstream change field. */
  field: string;
  event: string | null;
  details: Record<string, unknown>;
}
export const inboundAccountUpdateSchema = inboundSchema<InboundAccountUpdateItem>({
  field: Joi.string().required(),
  event: nullableString,
  details: Joi.object().unknown(true).required(),
});
