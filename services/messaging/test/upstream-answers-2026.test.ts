import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AS_WRITTEN_AND_DRESSED, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { UPSTREAM_TEMPLATES } from './factories/fake-upstream';
import {
  connectTenant,
  freshPhone,
  setupMessaging,
  type Json,
  type MessagingContext,
  type TenantContext,
} from './factories/messaging';

/*
 * The upstream's answers to `POST /{phone_number_id}/messages` on the 2026 wire (WIRE-2026.md, "Pacing and holds",
 * "sends to a user id"), as others publish them; ids and numbers are our own. Each answer also comes back with
 * fields we do not know sprinkled into every object: nothing of it may break.
 * - Meta's business-scoped user ids page (developers.facebook.com/documentation/business-messaging/whatsapp/
 *   business-scoped-user-ids, read in a public repository's copy found searching public code for
 *   `"pricing_model": "PMP"`): the answer to a send to a phone, `contacts[]` {input "+1…", wa_id} and `messages[]`
 *   {id, message_status}; to a user id, `contacts[]` {input: the user id, wa_id: "", user_id}.
 * - Secreto31126/whatsapp-api-js, its documented type ServerSentMessageResponse
 *   (whatsappapijs.web.app/types/types.ServerSentMessageResponse.html): `message_status` "accepted" or
 *   "held_for_quality_assessment"; Meta's template pacing page (developers.facebook.com/documentation/
 *   business-messaging/whatsapp/templates/template-pacing): held messages go out later or are dropped.
 * - Client libraries' test data found searching public code for `held_for_quality_assessment` and
 *   `"user_changed_user_id"`: a held answer `{"messages": [{"id": …, "message_status":
 *   "held_for_quality_assessment"}]}` beside `contacts[]` {input, wa_id}, an answer with an unknown `group_id` on the
 *   message, and an answer to a send to a user id whose contact has `input` and `user_id` and no `wa_id` (the form
 *   WIRE-2026.md gives).
 */

type Answer = (wamid: string) => Json;

/** The upstream over real HTTP, answering each send with the answer set for its customer (`to` or `recipient`). */
async function startAnsweringUpstream() {
  const answers = new Map<string, Answer>();
  const sends: Array<{ customer: string; body: Json; wamid: string }> = [];
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const bodyOf = async (req: IncomingMessage): Promise<Json> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
  };
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    if (req.method === 'GET' && url.includes('/message_templates'))
      return json(res, 200, { data: UPSTREAM_TEMPLATES });
    if (url.endsWith('/subscribed_apps')) return json(res, 200, { success: true });
    if (req.method !== 'POST' || !url.endsWith('/messages'))
      return json(res, 404, { error: { code: 100, message: `no route ${req.method} ${url}` } });
    void bodyOf(req).then((body) => {
      const customer = String(body.to ?? body.recipient);
      const wamid = `wamid.HBgL${uniqueSuffix().toUpperCase()}`;
      sends.push({ customer, body, wamid });
      const answer = answers.get(customer);
      json(res, 200, answer ? answer(wamid) : { messaging_product: 'whatsapp', messages: [{ id: wamid }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Sends to this customer are answered so. */
    answer: (customer: string, answer: Answer) => answers.set(customer, answer),
    sendsTo: (customer: string) => sends.filter((s) => s.customer === customer),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe.each(AS_WRITTEN_AND_DRESSED)("the upstream's send answers of the 2026 wire %s", (_, dress) => {
  const m = {} as MessagingContext;
  const t = {} as TenantContext;
  let upstream: Awaited<ReturnType<typeof startAnsweringUpstream>>;
  beforeAll(async () => {
    upstream = await startAnsweringUpstream();
    Object.assign(m, await setupMessaging({ UPSTREAM_BASE_URL: upstream.url }));
    Object.assign(t, await connectTenant(m));
  });
  afterAll(async () => {
    await m.stop();
    await upstream.close();
  });

  const userId = () => `US.${Date.now()}${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const springSale = {
    message_type: 'template',
    data: {
      name: 'spring_sale',
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
    },
  };
  /** Sends, then waits until the upstream's answer is applied: the message as the API shows it. */
  const sentMessage = async (body: Json) => {
    const id = (await t.send(body).expect(202)).body.data.message_log_id as number;
    return t.messageIn(id, ['sent']);
  };

  it('when a marketing send is answered held_for_quality_assessment, then the message is sent with held true, and its first report ends the hold', async () => {
    const [held, accepted] = [freshPhone(), freshPhone()];
    const answerTo = (phone: string, status: string) => (wamid: string) =>
      dress({
        messaging_product: 'whatsapp',
        contacts: [{ input: `+${phone}`, wa_id: phone }],
        messages: [{ id: wamid, message_status: status }],
      });
    upstream.answer(held, answerTo(held, 'held_for_quality_assessment'));
    upstream.answer(accepted, answerTo(accepted, 'accepted'));

    const paced = await sentMessage({ ...springSale, phone: held });
    const normal = await sentMessage({ ...springSale, phone: accepted });

    const [send] = upstream.sendsTo(held);
    expect(send.body).toMatchObject({ to: held, type: 'template', template: { name: 'spring_sale' } });
    expect(paced).toMatchObject({
      status: 'sent',
      held: true,
      provider_message_id: send.wamid,
      to_phone: held,
    });
    expect(normal).toMatchObject({ status: 'sent', held: false });
    // Meta let it go out after all: the normal statuses follow, and the message is held no more.
    const pricing = { pricing_model: 'PMP', type: 'regular', category: 'marketing' };
    await t.report(send.wamid, 'delivered', { recipient_id: held, pricing_category: 'marketing', pricing });
    const released = await waitFor(
      async () => {
        const found = await t.message(paced.message_log_id as number);
        return found.held === false && found;
      },
      { what: 'the hold ended' },
    );
    expect(released).toMatchObject({ status: 'delivered', provider_message_id: send.wamid });
  });

  it('when a send to a user id is answered with a contact naming that user id and no wa_id, then the answer is read and the message is sent to the user id', async () => {
    const customer = userId();
    upstream.answer(customer, (wamid) =>
      dress({
        messaging_product: 'whatsapp',
        contacts: [{ input: customer, user_id: customer }],
        messages: [{ id: wamid }],
      }),
    );

    const sent = await sentMessage({ phone: undefined, user_id: customer });

    const [send] = upstream.sendsTo(customer);
    expect(send.body).toMatchObject({
      recipient: customer,
      type: 'template',
      template: { name: 'hello_world' },
    });
    expect(send.body).not.toHaveProperty('to');
    expect(sent).toMatchObject({
      status: 'sent',
      held: false,
      provider_message_id: send.wamid,
      to_user_id: customer,
      to_phone: null,
    });
  });

  it("when a marketing send to a user id is answered held, with the empty wa_id of Meta's example, then the message is sent held", async () => {
    const customer = userId();
    upstream.answer(customer, (wamid) =>
      dress({
        messaging_product: 'whatsapp',
        contacts: [{ input: customer, wa_id: '', user_id: customer }],
        messages: [{ id: wamid, message_status: 'held_for_quality_assessment' }],
      }),
    );

    const sent = await sentMessage({ ...springSale, phone: undefined, user_id: customer });

    const [send] = upstream.sendsTo(customer);
    expect(sent).toMatchObject({
      status: 'sent',
      held: true,
      provider_message_id: send.wamid,
      to_user_id: customer,
      to_phone: null,
    });
  });
});
