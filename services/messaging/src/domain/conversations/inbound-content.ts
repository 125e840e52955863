import type { InboundMessageContent } from '@bm/contracts';

/*
 * What a customer's message says, read from the upstream message object as it was stored (the raw body is kept
 * whole, so nothing is lost for a type modelled later). Pure: the thread's reader calls it for each message.
 */

type Json = Record<string, unknown>;

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

function mediaOf(part: Json): InboundMessageContent['media'] {
  return {
    id: str(part.id),
    url: str(part.url) ?? str(part.link),
    mime_type: str(part.mime_type),
    caption: str(part.caption),
    filename: str(part.filename),
    sha256: str(part.sha256),
  };
}

function replyOf(type: string, raw: Json): InboundMessageContent['reply'] {
  if (type === 'button' && isObject(raw.button)) {
    return { type: 'button', id: null, title: str(raw.button.text), payload: str(raw.button.payload) };
  }
  if (type !== 'interactive' || !isObject(raw.interactive)) return null;
  const kind = str(raw.interactive.type) ?? 'interactive';
  const answer = raw.interactive[kind];
  if (!isObject(answer)) return { type: kind, id: null, title: null, payload: null };
  return {
    type: kind,
    id: str(answer.id),
    title: str(answer.title) ?? str(answer.description),
    payload: str(answer.response_json) ?? str(answer.body),
  };
}

/** The modelled parts of a stored customer message; a type not modelled here keeps its raw object in `raw`. */
export function inboundContentOf(type: string, raw: unknown): InboundMessageContent {
  const body: Json = isObject(raw) ? raw : {};
  const content: InboundMessageContent = {
    text: null,
    media: null,
    location: null,
    contacts: null,
    reaction: null,
    reply: null,
    context_message_id: isObject(body.context) ? str(body.context.id) : null,
    raw: null,
  };
  const part = body[type];
  if (type === 'text' && isObject(part)) {
    content.text = str(part.body);
  } else if (MEDIA_TYPES.has(type) && isObject(part)) {
    content.media = mediaOf(part);
    content.text = content.media?.caption ?? null;
  } else if (type === 'location' && isObject(part)) {
    content.location = {
      latitude: num(part.latitude),
      longitude: num(part.longitude),
      name: str(part.name),
      address: str(part.address),
      url: str(part.url),
    };
  } else if (type === 'contacts' && Array.isArray(body.contacts)) {
    content.contacts = body.contacts.filter(isObject);
  } else if (type === 'reaction' && isObject(part)) {
    content.reaction = { message_id: str(part.message_id), emoji: str(part.emoji) };
  } else if (type === 'button' || type === 'interactive') {
    content.reply = replyOf(type, body);
    content.text = content.reply?.title ?? null;
  } else {
    content.raw = body;
  }
  return content;
}
