import { createHmac } from 'node:crypto';
import { uniqueSuffix } from '@bm/platform/testing';

/** Shapes of the upstream's webhook bodies, as in UPSTREAM-REFERENCE.md "Webhooks". */

export const APP_SECRET = 'test-app-secret';
export const PREVIOUS_APP_SECRET = 'test-previous-app-secret';

/** `X-Hub-Signature-256` of the exact bytes. */
export function sign(raw: string | Buffer, secret = APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

/** A fresh upstream id (phone_number_id, WABA id, customer number). */
export const upstreamId = (): string => `1${digits(14)}`;
export const wamid = (): string => `wamid.HBgL${uniqueSuffix().toUpperCase()}${digits(6)}`;
export const unixSeconds = (at: Date): string => String(Math.floor(at.getTime() / 1000));

export type Json = Record<string, unknown>;

export const envelope = (...entries: Json[]): Json => ({
  object: 'whatsapp_business_account',
  entry: entries,
});

export const entry = (wabaId: string, ...changes: Json[]): Json => ({ id: wabaId, changes });

/** A `messages` change of one number. */
export const messagesChange = (phoneNumberId: string, value: Json): Json => ({
  field: 'messages',
  value: {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
    ...value,
  },
});

/** The common body: one `messages` change of one number, under a WABA. */
export const numberBody = (phoneNumberId: string, value: Json, wabaId = upstreamId()): Json =>
  envelope(entry(wabaId, messagesChange(phoneNumberId, value)));

export const contact = (waId: string, name: string): Json => ({ profile: { name }, wa_id: waId });

export const textMessage = (from: string, body: string, timestamp = '1749416383', id = wamid()): Json => ({
  from,
  id,
  timestamp,
  type: 'text',
  text: { body },
});

export const statusReport = (
  id: string,
  status: string,
  recipient: string,
  timestamp = '1750030073',
): Json =>
  status === 'failed'
    ? {
        id,
        status,
        timestamp,
        recipient_id: recipient,
        errors: [
          {
            code: 131049,
            title: 'This message was not delivered to maintain healthy ecosystem engagement.',
            message: 'This message was not delivered to maintain healthy ecosystem engagement.',
            error_data: {
              details: 'In order to maintain a healthy ecosystem engagement, the message failed.',
            },
          },
        ],
      }
    : {
        id,
        status,
        timestamp,
        recipient_id: recipient,
        conversation: { id: '72b14d6b0f0d2bbf4d5b2b5b3b6d7a11', origin: { type: 'marketing' } },
        pricing: { billable: true, pricing_model: 'PMP', category: 'marketing' },
      };

/** One inbound text of a customer on a number: the smallest real body. */
export const inboundTextBody = (phoneNumberId: string, from: string, text: string, id = wamid()): Json =>
  numberBody(phoneNumberId, {
    contacts: [contact(from, 'Sheena Nelson')],
    messages: [textMessage(from, text, unixSeconds(new Date()), id)],
  });

/** An account-level change: `entry[].time`, no metadata. */
export const accountEntry = (wabaId: string, time: number, field: string, value: Json): Json => ({
  id: wabaId,
  time,
  changes: [{ field, value }],
});
