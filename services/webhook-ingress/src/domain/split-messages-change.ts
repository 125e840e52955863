import type { InboundMedia, InboundMessageItem, InboundStatusItem, UpstreamError } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import {
  arrayOf,
  isObject,
  isoFromUnixSeconds,
  stringOf,
  type Json,
  type SkippedPart,
  type SplitItem,
} from './inbound-item';

const STATUSES = new Set(['sent', 'delivered', 'read', 'failed', 'played']);
const MEDIA_TYPES = new Set(['image', 'video', 'document', 'audio', 'sticker']);

// Numbers are matched by their digits: `from` and `wa_id` are digits at the upstream, but a `+` costs nothing.
const digitsOf = (phone: string): string => phone.replace(/\D/g, '');

interface ChangeContext {
  wabaId: string;
  phoneNumberId: string;
  receivedAt: Date;
}

function mediaOf(message: Json): InboundMedia | null {
  const media = message[String(message.type)];
  if (!MEDIA_TYPES.has(String(message.type)) || !isObject(media)) return null;
  const id = stringOf(media.id);
  const mimeType = stringOf(media.mime_type);
  if (!id || !mimeType) return null;
  const optional = Object.fromEntries(
    (['sha256', 'caption', 'filename'] as const)
      .filter((k) => typeof media[k] === 'string')
      .map((k) => [k, media[k] as string]),
  );
  return { id, mime_type: mimeType, ...optional };
}

/** The text a person reads: body, caption, quick-reply text or the reply's title. */
function textAndPayload(message: Json): { text: string | null; payload: string | null } {
  const type = String(message.type);
  const found = message[type];
  const content = isObject(found) ? found : {};
  if (type === 'text') return { text: stringOf(content.body) ?? '', payload: null };
  if (type === 'button') return { text: stringOf(content.text), payload: stringOf(content.payload) };
  if (type === 'interactive') {
    const reply = [content.button_reply, content.list_reply, content.nfm_reply].find(isObject);
    return { text: reply ? stringOf(reply.title) : null, payload: reply ? stringOf(reply.id) : null };
  }
  return { text: typeof content.caption === 'string' ? content.caption : null, payload: null };
}

/** What `contacts[]` says of each customer, by their phone's digits and by their user id. */
interface Contact {
  name: string | null;
  username: string | null;
}

function messageItem(ctx: ChangeContext, message: Json, contacts: Map<string, Contact>): SplitItem | string {
  const id = stringOf(message.id);
  // A customer with a username may come with no phone at all, named by their business-scoped user id only.
  const from = stringOf(message.from);
  const type = stringOf(message.type);
  // A change of user id may name the customer inside `system` alone (no `from`, no `from_user_id`): their new id is
  // `system.user_id` (Meta's business-scoped user ids page), what `from_user_id` says when it is written.
  const system = type === 'system' && isObject(message.system) ? message.system : {};
  const fromUserId = stringOf(message.from_user_id) ?? stringOf(system.user_id);
  if (!id || !(from || fromUserId) || !type) return 'message without id, from (or from_user_id) or type';
  const contact = (from ? contacts.get(digitsOf(from)) : undefined) ?? contacts.get(fromUserId ?? '');
  const { text, payload } = textAndPayload(message);
  const item: InboundMessageItem = {
    event_id: newUlid(),
    tenant_id: null,
    occurred_at: isoFromUnixSeconds(message.timestamp, ctx.receivedAt),
    received_at: ctx.receivedAt.toISOString(),
    waba_id: ctx.wabaId,
    phone_number_id: ctx.phoneNumberId,
    message_id: id,
    from,
    from_user_id: fromUserId,
    username: contact?.username ?? null,
    name: contact?.name ?? null,
    type,
    text,
    media: mediaOf(message),
    button_payload: payload,
    context_message_id: isObject(message.context) ? stringOf(message.context.id) : null,
    raw: message,
  };
  return { routingKey: 'inbound.message', dedupeKey: `message:${id}`, path: '', payload: item };
}

function upstreamErrors(value: unknown): UpstreamError[] {
  return arrayOf(value)
    .filter(isObject)
    .filter((e) => Number.isInteger(Number(e.code)))
    .map((e) => {
      const details = isObject(e.error_data) ? stringOf(e.error_data.details) : null;
      const message = stringOf(e.message);
      return {
        code: Number(e.code),
        title: stringOf(e.title) ?? '',
        ...(message ? { message } : {}),
        ...(details ? { details } : {}),
      };
    });
}

function statusItem(ctx: ChangeContext, status: Json): SplitItem | string {
  const id = stringOf(status.id);
  const value = stringOf(status.status);
  if (!id || !value) return 'status without id or status';
  if (!STATUSES.has(value)) return `unknown status ${value}`;
  const item: InboundStatusItem = {
    event_id: newUlid(),
    tenant_id: null,
    occurred_at: isoFromUnixSeconds(status.timestamp, ctx.receivedAt),
    waba_id: ctx.wabaId,
    phone_number_id: ctx.phoneNumberId,
    provider_message_id: id,
    status: value as InboundStatusItem['status'],
    recipient_id: stringOf(status.recipient_id),
    errors: upstreamErrors(status.errors),
    pricing_category: isObject(status.pricing) ? stringOf(status.pricing.category) : null,
    pricing: isObject(status.pricing)
      ? {
          pricing_model: stringOf(status.pricing.pricing_model),
          type: stringOf(status.pricing.type),
          category: stringOf(status.pricing.category),
        }
      : null,
    conversation_id: isObject(status.conversation) ? stringOf(status.conversation.id) : null,
    // Names the send attempt: how messaging ties a report to a send whose answer never arrived.
    biz_opaque_callback_data: stringOf(status.biz_opaque_callback_data),
  };
  return { routingKey: 'inbound.status', dedupeKey: `status:${id}:${value}`, path: '', payload: item };
}

/** A `messages` change: one item per customer message and per delivery receipt. */
export function splitMessagesChange(
  value: Json,
  wabaId: string,
  receivedAt: Date,
  path: string,
): { items: SplitItem[]; skipped: SkippedPart[] } {
  const items: SplitItem[] = [];
  const skipped: SkippedPart[] = [];
  const phoneNumberId = isObject(value.metadata) ? stringOf(value.metadata.phone_number_id) : null;
  if (!phoneNumberId)
    return { items, skipped: [{ path, reason: 'messages change without phone_number_id' }] };
  const ctx = { wabaId, phoneNumberId, receivedAt };
  const contacts = new Map<string, Contact>();
  for (const contact of arrayOf(value.contacts).filter(isObject)) {
    const profile = isObject(contact.profile) ? contact.profile : {};
    const known = { name: stringOf(profile.name), username: stringOf(profile.username) };
    const waId = stringOf(contact.wa_id);
    const userId = stringOf(contact.user_id);
    if (waId) contacts.set(digitsOf(waId), known);
    if (userId) contacts.set(userId, known);
  }
  const collect = (list: unknown, key: string, build: (entry: Json) => SplitItem | string) =>
    arrayOf(list).forEach((entry, i) => {
      const at = `${path}.${key}[${i}]`;
      const built = isObject(entry) ? build(entry) : `${key} entry is not an object`;
      if (typeof built === 'string') skipped.push({ path: at, reason: built });
      else items.push({ ...built, path: at });
    });
  collect(value.messages, 'messages', (m) => messageItem(ctx, m, contacts));
  collect(value.statuses, 'statuses', (s) => statusItem(ctx, s));
  if (arrayOf(value.errors).length > 0) {
    skipped.push({ path: `${path}.errors`, reason: 'number-level errors are kept here only' });
  }
  return { items, skipped };
}
