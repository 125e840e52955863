import type { AxiosInstance, AxiosResponse } from 'axios';
import type { RunningSandbox, TemplateRef } from './sandbox';
import type { WebhookReceiver } from './webhook-receiver';

/** A send answer of the 2026 wire, read loosely. */
export interface Answer2026 {
  contacts: Record<string, unknown>[];
  messages: { id: string; message_status?: string }[];
  error: { code: number };
}

export type Address = { to: string } | { recipient: string };

/** A send at the given version (v24.0 by default), to a phone (`to`) or a user id (`recipient`). */
export function send2026(
  http: AxiosInstance,
  phoneNumberId: string,
  address: Address,
  content: Record<string, unknown> = { type: 'text', text: { body: 'Hello' } },
  version = 'v24.0',
): Promise<AxiosResponse<Answer2026>> {
  return http.post<Answer2026>(`/${version}/${phoneNumberId}/messages`, {
    messaging_product: 'whatsapp',
    ...address,
    ...content,
  });
}

export function template(ref: TemplateRef): Record<string, unknown> {
  return {
    type: 'template',
    template: { name: ref.name, language: { code: ref.language ?? 'en_US' }, components: ref.components },
  };
}

/** Every `changes[].value` of a field the receiver got, in arrival order. */
export function valuesOf(receiver: WebhookReceiver, field: string): Record<string, unknown>[] {
  return receiver.received.flatMap((r) =>
    r.json.entry.flatMap((e) => e.changes.filter((c) => c.field === field).map((c) => c.value)),
  );
}

/** The user id the sandbox gives a phone within the number's portfolio. */
export async function userIdOf(sbx: RunningSandbox, phoneNumberId: string, waId: string): Promise<string> {
  const res = await sbx.http.get<{ data: { user_id: string }[] }>('/_sandbox/customers', {
    params: { phone_number_id: phoneNumberId, wa_id: waId },
  });
  return res.data.data[0].user_id;
}
