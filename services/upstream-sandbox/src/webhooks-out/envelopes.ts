import { describeCode } from '../graph-errors';
import type { Template } from '../templates/template';

/** Unix seconds as a string, as the upstream writes timestamps. */
export function unixSeconds(date = new Date()): string {
  return String(Math.floor(date.getTime() / 1000));
}

export interface NumberMetadata {
  waba_id: string;
  display_phone_number: string;
  phone_number_id: string;
}

function messagesEnvelope(number: NumberMetadata, value: Record<string, unknown>): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.waba_id,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: number.display_phone_number,
                phone_number_id: number.phone_number_id,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export interface StatusEvent {
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'played' | 'failed';
  /** The customer's phone; absent for a customer who shows only a username. */
  recipientId?: string;
  /** The business-scoped user id, on statuses of the 2026 wire and of sends by user id. */
  recipientUserId?: string;
  /** Pricing category: marketing, utility, authentication or service. */
  category: string;
  /** PMP pricing type: `regular` or `free_customer_service`. */
  pricingType: string;
  /** v24.0 and later: no `conversation`; `pricing` with `type`, on `sent` and `delivered` only. */
  wire2026: boolean;
  conversationId: string;
  errorCode?: number;
  /** The send's `biz_opaque_callback_data`, echoed as the network does. */
  callbackData?: string;
}

/**
 * A `statuses[]` webhook; a failed status carries `errors[]` and no conversation or pricing. Before v24.0 every
 * other status carries `conversation` and `pricing` (without `type`); from v24.0 there is no `conversation`, and
 * `pricing` (with `type`) comes on `sent` and `delivered` only.
 */
export function statusEnvelope(number: NumberMetadata, event: StatusEvent): Record<string, unknown> {
  const status: Record<string, unknown> = {
    id: event.messageId,
    status: event.status,
    timestamp: unixSeconds(),
  };
  if (event.recipientId !== undefined) status.recipient_id = event.recipientId;
  if (event.recipientUserId !== undefined) status.recipient_user_id = event.recipientUserId;
  if (event.callbackData !== undefined) status.biz_opaque_callback_data = event.callbackData;
  if (event.status === 'failed') {
    const info = describeCode(event.errorCode ?? 131000);
    status.errors = [
      {
        code: event.errorCode ?? 131000,
        title: info.title,
        message: info.title,
        error_data: { details: info.details },
      },
    ];
  } else if (event.wire2026) {
    if (event.status === 'sent' || event.status === 'delivered') {
      status.pricing = {
        billable: event.pricingType === 'regular',
        pricing_model: 'PMP',
        type: event.pricingType,
        category: event.category,
      };
    }
  } else {
    status.conversation = { id: event.conversationId, origin: { type: event.category } };
    status.pricing = {
      billable: event.category !== 'service',
      pricing_model: 'PMP',
      category: event.category,
    };
  }
  return messagesEnvelope(number, { statuses: [status] });
}

export interface InboundEvent {
  messageId: string;
  /** The customer's phone; absent for a customer who shows only a username. */
  from?: string;
  /** The 2026 fields: `contacts[].user_id`, `contacts[].profile.username`, `messages[].from_user_id`. */
  userId?: string;
  username?: string;
  name: string;
  message: Record<string, unknown>;
}

/** A customer's message: `contacts[]` and `messages[]`. */
export function inboundEnvelope(number: NumberMetadata, event: InboundEvent): Record<string, unknown> {
  const profile = { name: event.name, ...(event.username === undefined ? {} : { username: event.username }) };
  const contact = {
    profile,
    ...(event.from === undefined ? {} : { wa_id: event.from }),
    ...(event.userId === undefined ? {} : { user_id: event.userId }),
  };
  const message = {
    ...(event.from === undefined ? {} : { from: event.from }),
    ...(event.userId === undefined ? {} : { from_user_id: event.userId }),
    id: event.messageId,
    timestamp: unixSeconds(),
    ...event.message,
  };
  return messagesEnvelope(number, { contacts: [contact], messages: [message] });
}

export interface PreferenceEvent {
  /** The customer's phone; absent for a customer who shows only a username. */
  waId?: string;
  userId?: string;
  name: string;
  value: 'stop' | 'resume';
  detail: string;
}

/** A `user_preferences` webhook: a customer stops or resumes marketing messages from the business. */
export function userPreferencesEnvelope(
  number: NumberMetadata,
  event: PreferenceEvent,
): Record<string, unknown> {
  const ids = {
    ...(event.waId === undefined ? {} : { wa_id: event.waId }),
    ...(event.userId === undefined ? {} : { user_id: event.userId }),
  };
  const envelope = messagesEnvelope(number, {
    contacts: [{ profile: { name: event.name }, ...ids }],
    user_preferences: [
      {
        ...ids,
        detail: event.detail,
        category: 'marketing_messages',
        value: event.value,
        timestamp: Math.floor(Date.now() / 1000),
      },
    ],
  });
  (envelope.entry as { changes: { field: string }[] }[])[0].changes[0].field = 'user_preferences';
  return envelope;
}

/** An account-level change (no metadata, `entry[].time`): one `field` and its `value`. */
function accountEnvelope(
  wabaId: string,
  field: string,
  value: Record<string, unknown>,
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }],
  };
}

/** An account-level `business_capability_update`: the portfolio's daily limit, as a tier name. */
export function businessCapabilityEnvelope(wabaId: string, tier: string): Record<string, unknown> {
  return accountEnvelope(wabaId, 'business_capability_update', {
    max_daily_conversations_per_business: tier,
  });
}

/** An account-level `message_template_status_update`: `entry[].time`, no metadata. */
export function templateStatusEnvelope(
  wabaId: string,
  template: Template,
  reason: string,
): Record<string, unknown> {
  return accountEnvelope(wabaId, 'message_template_status_update', {
    event: template.status,
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
    reason,
    message_template_category: template.category,
  });
}
