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
  status: 'sent' | 'delivered' | 'read' | 'failed';
  recipientId: string;
  /** Pricing category: marketing, utility, authentication or service. */
  category: string;
  conversationId: string;
  errorCode?: number;
  /** The send's `biz_opaque_callback_data`, echoed as the network does. */
  callbackData?: string;
}

/** A `statuses[]` webhook; a failed status carries `errors[]` and no conversation or pricing. */
export function statusEnvelope(number: NumberMetadata, event: StatusEvent): Record<string, unknown> {
  const status: Record<string, unknown> = {
    id: event.messageId,
    status: event.status,
    timestamp: unixSeconds(),
    recipient_id: event.recipientId,
  };
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
  from: string;
  name: string;
  message: Record<string, unknown>;
}

/** A customer's message: `contacts[]` and `messages[]`. */
export function inboundEnvelope(number: NumberMetadata, event: InboundEvent): Record<string, unknown> {
  return messagesEnvelope(number, {
    contacts: [{ profile: { name: event.name }, wa_id: event.from }],
    messages: [{ from: event.from, id: event.messageId, timestamp: unixSeconds(), ...event.message }],
  });
}

/** An account-level `message_template_status_update`: `entry[].time`, no metadata. */
export function templateStatusEnvelope(
  wabaId: string,
  template: Template,
  reason: string,
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event: template.status,
              message_template_id: Number(template.id),
              message_template_name: template.name,
              message_template_language: template.language,
              reason,
              message_template_category: template.category,
            },
          },
        ],
      },
    ],
  };
}
