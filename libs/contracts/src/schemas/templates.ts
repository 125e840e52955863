import Joi from 'joi';
import { ulidSchema } from './common';
import { languageCodeSchema } from './messages';

/*
 * Template definitions travel in the upstream network's format and spelling (upper-case types, statuses and
 * categories), as GET /message_templates answers them; requests accept any case and store the upper case.
 */

export const TEMPLATE_STATUSES = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
  'ARCHIVED',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const TEMPLATE_HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export type TemplateHeaderFormat = (typeof TEMPLATE_HEADER_FORMATS)[number];

/** Header formats whose sends must carry the media (TEMPLATE_HEADER_MEDIA_REQUIRED otherwise). */
export const MEDIA_HEADER_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;

export const TEMPLATE_BUTTON_TYPES = [
  'QUICK_REPLY',
  'URL',
  'PHONE_NUMBER',
  'COPY_CODE',
  'OTP',
  'FLOW',
  'CATALOG',
] as const;

export interface TemplateButton {
  /** One of TEMPLATE_BUTTON_TYPES; kept open because the upstream adds button types. */
  type: string;
  text?: string;
  url?: string;
  phone_number?: string;
  example?: string[] | string;
}

export interface TemplateComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS';
  format?: TemplateHeaderFormat;
  text?: string;
  buttons?: TemplateButton[];
  example?: Record<string, unknown>;
}

/**
 * The upstream's quality flag (its FLAGGED event): the template's quality is low and it may be paused or disabled
 * later; it can still be sent. Cleared when the upstream approves or reinstates the template.
 */
export interface TemplateFlagDto {
  /** The upstream's reason; null when it gave none. */
  reason: string | null;
  flagged_at: string;
}

/** An entry of GET /api/v1/templates. */
export interface TemplateDto {
  id: string;
  channel_account_id: string;
  name: string;
  language: string;
  status: TemplateStatus;
  category: TemplateCategory;
  header_format: TemplateHeaderFormat | null;
  /** Default sample media of an IMAGE, VIDEO or DOCUMENT header, reusable as a send's header link. */
  header_sample_media_url: string | null;
  components: TemplateComponent[];
  /** Null unless the upstream flagged the template's quality. */
  flag: TemplateFlagDto | null;
  /** The upstream's reason while the template is REJECTED (e.g. INVALID_FORMAT); null otherwise. */
  rejected_reason: string | null;
}

export interface TemplateListDto {
  templates: TemplateDto[];
}

export interface ListTemplatesQuery {
  channel_account_id?: string;
  status?: TemplateStatus;
}

/** GET /api/v1/templates query; no pagination, as CONTRACT.md lists `data.templates[]` alone. */
export const listTemplatesQuerySchema = Joi.object<ListTemplatesQuery>({
  channel_account_id: ulidSchema,
  status: Joi.string()
    .valid(...TEMPLATE_STATUSES)
    .insensitive(),
});

const upper = (...values: readonly string[]) =>
  Joi.string()
    .valid(...values)
    .insensitive();
const isType = (type: string) => upper(type);

const templateButtonSchema = Joi.object<TemplateButton>({
  type: upper(...TEMPLATE_BUTTON_TYPES).required(),
  text: Joi.string().max(25),
  url: Joi.string().max(2000),
  phone_number: Joi.string().max(20),
  example: Joi.alternatives(Joi.array().items(Joi.string().max(2000)).max(10), Joi.string().max(2000)),
}).unknown(true); // OTP and FLOW buttons carry more upstream fields, passed on as given.

/** A component of a template definition in the upstream format (limits are the upstream's). */
export const templateComponentSchema = Joi.object<TemplateComponent>({
  type: upper('HEADER', 'BODY', 'FOOTER', 'BUTTONS').required(),
  format: Joi.when('type', {
    is: isType('HEADER'),
    then: upper(...TEMPLATE_HEADER_FORMATS).required(),
    otherwise: Joi.forbidden(),
  }),
  text: Joi.when('type', {
    switch: [
      {
        is: isType('HEADER'),
        then: Joi.when('format', {
          is: isType('TEXT'),
          then: Joi.string().max(60).required(),
          otherwise: Joi.forbidden(),
        }),
      },
      { is: isType('BODY'), then: Joi.string().max(1024).required() },
      { is: isType('FOOTER'), then: Joi.string().max(60).required() },
    ],
    otherwise: Joi.forbidden(),
  }),
  buttons: Joi.when('type', {
    is: isType('BUTTONS'),
    then: Joi.array().items(templateButtonSchema).min(1).max(10).required(),
    otherwise: Joi.forbidden(),
  }),
  example: Joi.object().unknown(true).description('Upstream examples, e.g. body_text or header_handle'),
});

export interface SubmitTemplateRequest {
  channel_account_id: string;
  name: string;
  language: string;
  category: TemplateCategory;
  components: TemplateComponent[];
}

/** POST /api/v1/templates: submits a new template to the upstream network; answers the TemplateDto (PENDING). */
export const submitTemplateSchema = Joi.object<SubmitTemplateRequest>({
  channel_account_id: ulidSchema.required(),
  name: Joi.string()
    .max(512)
    .pattern(/^[a-z0-9]+(_[a-z0-9]+)*$/, 'lower snake case')
    .required()
    .messages({ 'string.pattern.name': '{{#label}} must be lower snake case, e.g. order_update' }),
  language: languageCodeSchema.required(),
  category: upper(...TEMPLATE_CATEGORIES).required(),
  components: Joi.array()
    .items(templateComponentSchema)
    .min(1)
    .max(4)
    .unique((a: TemplateComponent, b: TemplateComponent) => a.type === b.type)
    .has(Joi.object({ type: isType('BODY') }).unknown(true))
    .required()
    .messages({
      'array.hasUnknown': '{{#label}} must include a BODY component',
      'array.unique': '{{#label}} may hold each component type once',
    }),
});
