import Joi from 'joi';

/**
 * Template send components in the upstream network's format (`template.components` of a send), which the
 * service passes on as given. Types are the upstream's lower case; upper case is accepted and lowered because
 * template definitions spell the same words in upper case.
 */
export const SEND_COMPONENT_TYPES = ['header', 'body', 'button'] as const;
export type SendComponentType = (typeof SEND_COMPONENT_TYPES)[number];

export const SEND_PARAMETER_TYPES = [
  'text',
  'image',
  'video',
  'document',
  'currency',
  'date_time',
  'payload',
] as const;
export type SendParameterType = (typeof SEND_PARAMETER_TYPES)[number];

export const MEDIA_TYPES = ['image', 'video', 'document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const BUTTON_SUB_TYPES = ['quick_reply', 'url', 'copy_code', 'flow', 'catalog'] as const;
export type ButtonSubType = (typeof BUTTON_SUB_TYPES)[number];

/** Media by public URL or by a previously uploaded media id. */
export interface MediaObject {
  link?: string;
  id?: string;
  caption?: string;
  filename?: string;
}

export interface SendParameter {
  type: SendParameterType;
  text?: string;
  image?: MediaObject;
  video?: MediaObject;
  document?: MediaObject;
  currency?: { fallback_value: string; code: string; amount_1000: number };
  date_time?: { fallback_value: string };
  payload?: string;
}

export interface SendComponent {
  type: SendComponentType;
  sub_type?: ButtonSubType;
  index?: number;
  parameters: SendParameter[];
}

const mediaObjectKeys = {
  link: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .max(2048),
  id: Joi.string().max(256),
  caption: Joi.string().max(1024),
  filename: Joi.string().max(240),
};

const mediaObjectSchema = Joi.object<MediaObject>(mediaObjectKeys)
  .xor('link', 'id')
  .description('Media by link (public URL) or by uploaded media id');

// A header's media object without link or id passes here so that the template check answers it with the published
// API's TEMPLATE_HEADER_MEDIA_REQUIRED (a send without its header media), as a missing header component is.
const headerMediaObjectSchema = Joi.object<MediaObject>(mediaObjectKeys)
  .oxor('link', 'id')
  .description(
    'Media by link (public URL) or by uploaded media id; a media header without either is answered ' +
      '422 TEMPLATE_HEADER_MEDIA_REQUIRED',
  );

// Each parameter type requires its own value key and refuses the others, as the upstream does.
function parameterSchema(media: Joi.Schema): Joi.ObjectSchema<SendParameter> {
  const valueSchemas: Record<SendParameterType, Joi.Schema> = {
    // 1024 is the upstream's limit for body parameters; header parameters (60) are checked by the upstream.
    text: Joi.string().min(1).max(1024),
    image: media,
    video: media,
    document: media,
    currency: Joi.object({
      fallback_value: Joi.string().max(256).required(),
      code: Joi.string()
        .pattern(/^[A-Z]{3}$/, 'ISO 4217 code')
        .required(),
      amount_1000: Joi.number().integer().required(),
    }),
    date_time: Joi.object({ fallback_value: Joi.string().max(256).required() }),
    payload: Joi.string().max(1024),
  };
  const parameterKeys: Record<string, Joi.Schema> = {
    type: Joi.string()
      .valid(...SEND_PARAMETER_TYPES)
      .insensitive()
      .required(),
  };
  for (const type of SEND_PARAMETER_TYPES) {
    parameterKeys[type] = Joi.when('type', {
      is: Joi.string().valid(type).insensitive(),
      then: valueSchemas[type].required(),
      otherwise: Joi.forbidden(),
    });
  }
  return Joi.object<SendParameter>(parameterKeys).description(
    'A positional parameter: type and the value under the key of the same name',
  );
}

export const sendParameterSchema = parameterSchema(mediaObjectSchema);
const headerParameterSchema = parameterSchema(headerMediaObjectSchema);

export const sendComponentSchema = Joi.object<SendComponent>({
  type: Joi.string()
    .valid(...SEND_COMPONENT_TYPES)
    .insensitive()
    .required(),
  sub_type: Joi.when('type', {
    is: Joi.string().valid('button').insensitive(),
    then: Joi.string()
      .valid(...BUTTON_SUB_TYPES)
      .insensitive()
      .required(),
    otherwise: Joi.forbidden(),
  }),
  index: Joi.when('type', {
    is: Joi.string().valid('button').insensitive(),
    then: Joi.number().integer().min(0).max(9).required(),
    otherwise: Joi.forbidden(),
  }),
  parameters: Joi.when('type', {
    is: Joi.string().valid('header').insensitive(),
    then: Joi.array().items(headerParameterSchema).max(100).default([]),
    otherwise: Joi.array().items(sendParameterSchema).max(100).default([]),
  }).description(
    "Positional parameters. A header's media object without link or id is answered 422 " +
      'TEMPLATE_HEADER_MEDIA_REQUIRED (the media header rule); elsewhere it is a VALIDATION_ERROR',
  ),
}).description('A template component with its parameters, in the upstream network format');

export const sendComponentsSchema = Joi.array()
  .items(sendComponentSchema)
  .max(20)
  .description('Components in the upstream network format; omit when the template has no dynamic parameters');
