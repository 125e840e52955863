import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { randomPhone, type Stack, type TenantFixture } from './stack';

export type MessageView = Record<string, unknown>;

/** POST /api/v1/messages/send through the gateway; a hello_world template to a random phone unless overridden. */
export function postSend(
  stack: Stack,
  t: TenantFixture,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return request(stack.gatewayUrl)
    .post('/api/v1/messages/send')
    .set({ ...t.auth, ...headers })
    .send({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name: 'hello_world' },
      ...body,
    });
}

/** `data` of a send of the MARKETING template `order_update`: its image header and its two body values. */
export function orderUpdateData(first: string, second: string): Record<string, unknown> {
  return {
    name: 'order_update',
    components: [
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/a.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: first },
          { type: 'text', text: second },
        ],
      },
    ],
  };
}

/** Sends and returns the message_log_id of the 202. */
export async function sendTemplate(
  stack: Stack,
  t: TenantFixture,
  body: Record<string, unknown> = {},
): Promise<number> {
  return (await postSend(stack, t, body).expect(202)).body.data.message_log_id as number;
}

export async function readMessage(stack: Stack, t: TenantFixture, id: number): Promise<MessageView> {
  return (await request(stack.gatewayUrl).get(`/api/v1/messages/${id}`).set(t.auth).expect(200)).body
    .data as MessageView;
}

/** Polls the message until its status is one of those given. */
export function waitForStatus(
  stack: Stack,
  t: TenantFixture,
  id: number,
  statuses: string[],
  timeoutMs = 10_000,
): Promise<MessageView> {
  return waitFor(
    async () => {
      const m = await readMessage(stack, t, id);
      return statuses.includes(m.status as string) ? m : undefined;
    },
    { timeoutMs, what: `message ${id} ${statuses.join('|')}` },
  );
}

export interface SandboxSend {
  at: string;
  /** The recipient, digits only (what `to=` matches). */
  wa_id?: string;
  body: { to: string };
  result: string;
}

/** What the sandbox received, filtered by its query (to=, phone_number_id=). */
export async function sandboxSends(stack: Stack, query: string): Promise<SandboxSend[]> {
  return (await request(stack.sandboxUrl).get(`/_sandbox/sends?${query}`)).body.data as SandboxSend[];
}

/**
 * The results of the sandbox's sends to each of these phones, in the order it received them: what
 * `sandboxSends(stack, \`to=${phone}\`)` answers for each, read with one request instead of one per phone.
 */
export async function sandboxResultsByPhone(stack: Stack, phones: string[]): Promise<Map<string, string[]>> {
  const digits = (phone: string) => phone.replace(/\D/g, '');
  const byPhone = new Map<string, string[]>();
  for (const phone of phones) byPhone.set(digits(phone), []);
  for (const send of await sandboxSends(stack, '')) byPhone.get(send.wa_id ?? '')?.push(send.result);
  return new Map(phones.map((phone) => [phone, byPhone.get(digits(phone))!]));
}
