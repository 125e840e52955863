import { GraphError } from '../graph-errors';
import { USER_ID } from '../customers/customers';
import { digitsOnly } from '../ids';
import type { SendComponent, SendParameter, TemplateSend } from '../templates/template-check';

/** A send body whose shape passed the upstream's checks. */
export interface ValidSend {
  /** What the sender wrote: `to` as given, or the `recipient` user id. */
  to: string;
  /** Digits of `to`; absent for a send to a user id. */
  waId?: string;
  /** The `recipient` of a send to a business-scoped user id (`to` absent). */
  userId?: string;
  /** The phone digits or the user id: what faults and message ids key on. */
  address: string;
  type: string;
  template?: TemplateSend;
  /** Echoed in every status report of the message. */
  callbackData?: string;
}

const TYPES = [
  'text',
  'template',
  'image',
  'video',
  'document',
  'audio',
  'sticker',
  'interactive',
  'location',
  'contacts',
  'reaction',
];
const MEDIA_TYPES = new Set(['image', 'video', 'document', 'audio', 'sticker']);
export const TEXT_BODY_MAX = 4096;
const CALLBACK_DATA_MAX = 512;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(details: string): GraphError {
  return GraphError.of(100, details);
}

function validateTo(to: unknown): string {
  if (typeof to !== 'string' || to.trim() === '') throw invalid('The parameter to is required.');
  const waId = digitsOnly(to);
  if (!/^\+?[\d\s\-().]+$/.test(to.trim()) || waId.length < 5 || waId.length > 15) {
    throw invalid('Param to must be a valid phone number.');
  }
  return waId;
}

function validateRecipient(recipient: unknown): string {
  if (typeof recipient !== 'string' || !USER_ID.test(recipient)) {
    throw invalid('Param recipient must be a valid business-scoped user id.');
  }
  return recipient;
}

function validateComponents(raw: unknown): SendComponent[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw invalid("Param template['components'] must be an array.");
  return raw.map((component, i) => {
    if (!isObject(component) || typeof component.type !== 'string') {
      throw invalid(`Param template['components'][${i}]['type'] is required.`);
    }
    const parameters = component.parameters ?? [];
    if (!Array.isArray(parameters) || !parameters.every((p) => isObject(p) && typeof p.type === 'string')) {
      throw invalid(
        `Param template['components'][${i}]['parameters'] must be an array of objects with a type.`,
      );
    }
    return { ...component, type: component.type, parameters: parameters as SendParameter[] };
  });
}

function validateTemplate(template: Json): TemplateSend {
  if (typeof template.name !== 'string' || template.name === '') {
    throw invalid("Param template['name'] is required.");
  }
  const language = template.language;
  if (!isObject(language) || typeof language.code !== 'string' || language.code === '') {
    throw invalid("Param template['language']['code'] is required.");
  }
  return {
    name: template.name,
    language: language.code,
    components: validateComponents(template.components),
  };
}

function validateContent(type: string, content: Json): TemplateSend | undefined {
  if (type === 'text') {
    if (typeof content.body !== 'string' || content.body === '')
      throw invalid("Param text['body'] is required.");
    if (content.body.length > TEXT_BODY_MAX) {
      throw invalid(`Param text['body'] must be at most ${TEXT_BODY_MAX} characters long.`);
    }
  }
  if (MEDIA_TYPES.has(type) && typeof content.id !== 'string' && typeof content.link !== 'string') {
    throw GraphError.of(131008, `Param ${type} must contain either id or link.`);
  }
  return type === 'template' ? validateTemplate(content) : undefined;
}

/** Checks a send body as the upstream does; throws error 100 (or 131008) with the offending parameter. */
export function validateSendBody(body: unknown): ValidSend {
  if (!isObject(body)) throw invalid('The request body must be a JSON object.');
  if (body.messaging_product !== 'whatsapp') {
    throw invalid("The parameter messaging_product is required and must be 'whatsapp'.");
  }
  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
    throw invalid("Param recipient_type must be 'individual'.");
  }
  // `to` wins when both are given, as on the network.
  const userId =
    body.to === undefined && body.recipient !== undefined ? validateRecipient(body.recipient) : undefined;
  const waId = userId === undefined ? validateTo(body.to) : undefined;
  const type = body.type ?? 'text';
  if (typeof type !== 'string' || !TYPES.includes(type)) {
    throw invalid(`Param type must be one of {${TYPES.join(', ')}}.`);
  }
  const content = body[type];
  if (!isObject(content)) throw GraphError.of(131008, `The parameter ${type} is required.`);
  const template = validateContent(type, content);
  const callbackData = body.biz_opaque_callback_data;
  if (
    callbackData !== undefined &&
    (typeof callbackData !== 'string' || callbackData.length > CALLBACK_DATA_MAX)
  ) {
    throw invalid(
      `Param biz_opaque_callback_data must be a string of at most ${CALLBACK_DATA_MAX} characters.`,
    );
  }
  return {
    to: userId ?? (body.to as string),
    waId,
    userId,
    address: userId ?? (waId as string),
    type,
    template,
    callbackData,
  };
}
