import Joi from 'joi';
import { ulidSchema } from './common';
import { customerAddressKeys } from './customer-address';
import { scheduledAtSchema, timezoneSchema } from './scheduling';
import { sendComponentsSchema, type SendComponent } from './send-components';

/*
 * Unknown fields are refused (422 VALIDATION_ERROR naming the field, "x is not allowed"), as Stripe refuses
 * unknown parameters: a misspelt optional field such as `scheduled_at` would otherwise send at once, silently.
 * Joi objects refuse unknown keys by default; the request schemas here rely on that.
 */

export const MESSAGE_TYPES = ['text', 'template'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const CONVERSATION_CATEGORIES = ['SERVICE', 'MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type ConversationCategory = (typeof CONVERSATION_CATEGORIES)[number];

/** The upstream's limit for a text body. */
export const TEXT_MAX_LENGTH = 4096;
export const DEFAULT_LANGUAGE_CODE = 'en_US';

export interface TextMessageData {
  text: string;
}

export interface TemplateMessageData {
  name: string;
  language_code: string;
  components?: SendComponent[];
}

interface SendMessageCommon {
  channel_account_id: string;
  /** Normalized digits after validation; absent when the send names the customer by `user_id`. */
  phone?: string;
  /** The customer's business-scoped user id (the 2026 network), instead of `phone`: exactly one of the two. */
  user_id?: string;
  scheduled_at?: string;
  timezone?: string;
}

/** A validated text send. */
export interface SendTextMessageRequest extends SendMessageCommon {
  message_type: 'text';
  data: TextMessageData;
}

/** A validated template send; defaults are filled in. */
export interface SendTemplateMessageRequest extends SendMessageCommon {
  message_type: 'template';
  data: TemplateMessageData;
  auto_retry_on_frequency_cap: boolean;
}

export type SendMessageRequest = SendTextMessageRequest | SendTemplateMessageRequest;

export const languageCodeSchema = Joi.string()
  .pattern(/^[a-z]{2,3}(_[A-Za-z0-9]{2,4})?$/, 'language code')
  .description('Template language code, e.g. en_US, ar, pt_BR');

/**
 * A language code in the spelling of template listings and sends (`en_US`): the upstream writes the same code
 * with a hyphen in places (`en-US` in its template status updates), and both name one language.
 */
export function canonicalLanguageCode(code: string): string {
  return code.replace(/-/g, '_');
}

export const textMessageDataSchema = Joi.object<TextMessageData>({
  text: Joi.string()
    .max(TEXT_MAX_LENGTH)
    .pattern(/\S/, 'not blank')
    .required()
    .messages({ 'string.pattern.name': '{{#label}} must not be blank' })
    .description('Message text; Unicode supported'),
});

export const templateMessageDataSchema = Joi.object<TemplateMessageData>({
  name: Joi.string().max(512).required().description('Template name'),
  language_code: languageCodeSchema.default(DEFAULT_LANGUAGE_CODE),
  components: sendComponentsSchema,
});

const commonKeys = {
  channel_account_id: ulidSchema
    .required()
    .description('Id of the sending account (API ID in the dashboard)'),
  // The customer by phone or by user id (CONTRACT.md, the network of late 2026): exactly one of the two.
  ...customerAddressKeys,
  scheduled_at: scheduledAtSchema,
  timezone: timezoneSchema,
};

const autoRetrySchema = Joi.boolean()
  .default(false)
  .description('Opt-in single retry 26 hours after upstream error 131049 (marketing frequency cap)');

/** Text variant alone, for the OpenAPI document's oneOf. */
export const sendTextMessageSchema = Joi.object<SendTextMessageRequest>({
  ...commonKeys,
  message_type: Joi.string().valid('text').required(),
  data: textMessageDataSchema.required(),
}).description('Free-form text; only within 24 hours of the customer last message');

/** Template variant alone, for the OpenAPI document's oneOf. */
export const sendTemplateMessageSchema = Joi.object<SendTemplateMessageRequest>({
  ...commonKeys,
  message_type: Joi.string().valid('template').required(),
  data: templateMessageDataSchema.required(),
  auto_retry_on_frequency_cap: autoRetrySchema,
}).description('Pre-approved template; allowed at any time');

/**
 * POST /api/v1/messages/send. One object whose `data` follows `message_type`, so an unknown type is an error on
 * `message_type` alone and, with abortEarly off, every missing or bad field is listed in one answer.
 */
/** `message_type` and the `data` that follows it: a send's, and a reply's in a conversation. */
export const messageContentKeys = {
  message_type: Joi.string()
    .valid(...MESSAGE_TYPES)
    .required(),
  data: Joi.when('message_type', {
    switch: [
      { is: 'text', then: textMessageDataSchema },
      { is: 'template', then: templateMessageDataSchema },
    ],
    // With an unknown type there is nothing to check data against beyond being an object.
    otherwise: Joi.object().unknown(true),
  }).required(),
};

export const sendMessageSchema = Joi.object<SendMessageRequest>({
  ...commonKeys,
  ...messageContentKeys,
  auto_retry_on_frequency_cap: Joi.when('message_type', {
    switch: [
      { is: 'template', then: autoRetrySchema },
      {
        is: 'text',
        then: Joi.forbidden().messages({ 'any.unknown': '{{#label}} applies to template messages only' }),
      },
    ],
    otherwise: Joi.boolean(),
  }),
}).description('Send one text or template message');

/** 202 answer of POST /api/v1/messages/send. */
export interface SendAcknowledgement {
  status: 'queued' | 'scheduled';
  message_log_id: number;
  conversation_category: ConversationCategory;
  /** Reserved for future billing; 0 for now. */
  cost: number;
  /** UTC instant of a scheduled send (`toISOString()` form), null when immediate; present for both types. */
  scheduled_at: string | null;
}
