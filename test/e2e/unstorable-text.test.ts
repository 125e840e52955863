import { createHmac } from 'node:crypto';
import request from 'supertest';
import { INVALID_PHONE_RECIPIENT_ERROR, INVALID_TEXT_RECIPIENT_ERROR } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import { testEnv, waitFor } from '@bm/platform/testing';
import { loadIngressConfig } from '../../services/webhook-ingress/src/config';
import { allRecipients, phones, postCampaign, readCampaign, waitForCampaign } from '../support/campaigns';
import { collectEvents } from '../support/events';
import { startIngress, type IngressFixture } from '../support/ingress';
import { orderUpdateData, postSend, readMessage, sendTemplate } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

/*
 * Text PostgreSQL cannot store, NUL (`\u0000`) and an unpaired UTF-16 surrogate (`\ud800`), through the public API
 * (refused with 422 naming the field; a campaign recipient row fails alone) and through the signed inbound
 * endpoint (made storable, and never holding back the other items of the body).
 */
let stack: Stack;
let ingress: IngressFixture;
let t: TenantFixture;

beforeAll(async () => {
  stack = await startStack({ campaignEnv: {} });
  ingress = await startIngress(stack);
  t = await createTenant(stack, 'TIER_10K');
}, 60_000);

afterAll(async () => {
  await ingress?.stop();
  await stack?.stop();
});

const api = () => request(stack.gatewayUrl);
const fieldsOf = (res: request.Response) =>
  (res.body.error.details.errors as Array<{ field: string; message: string }>).map((e) => [
    e.field,
    e.message,
  ]);

describe('unpaired surrogates in public requests', () => {
  const flow = (keywords: string[], text: string) => ({
    channel_account_id: t.channelAccountId,
    name: 'Surrogates',
    trigger: { type: 'keyword', keywords },
    steps: [
      { id: 'hi', type: 'send_text', text, next: 'done' },
      { id: 'done', type: 'end' },
    ],
  });

  it.each([
    [
      'a text send',
      () => postSend(stack, t, { message_type: 'text', data: { text: 'x\ud800y' } }),
      'data.text',
    ],
    [
      'a template parameter',
      () => postSend(stack, t, { data: orderUpdateData('Ana\udc00', '42') }),
      'data.components[1].parameters[0].text',
    ],
    [
      'a scheduled template parameter',
      () =>
        postSend(stack, t, { data: orderUpdateData('Ana', '4\ud8002'), scheduled_at: '2030-06-01T12:30:00' }),
      'data.components[1].parameters[1].text',
    ],
    [
      'a key of the data',
      () => postSend(stack, t, { message_type: 'text', data: { text: 'hi', '\ud800': 'x' } }),
      'data.\ud800',
    ],
    [
      'campaign template_params',
      () => postCampaign(stack, t, { template_name: 'order_update', template_params: ['a\ud800', 'b'] }),
      'template_params[0]',
    ],
    [
      'a flow trigger keyword',
      () =>
        api()
          .post('/api/v1/flows')
          .set(t.auth)
          .send(flow(['hi\ud800'], 'Hello')),
      'trigger.keywords[0]',
    ],
    [
      'a flow step text',
      () =>
        api()
          .post('/api/v1/flows')
          .set(t.auth)
          .send(flow(['hi'], 'Hello \udfff')),
      'steps[0].text',
    ],
    [
      'a template component text',
      () =>
        api()
          .post('/api/v1/templates')
          .set(t.auth)
          .send({
            channel_account_id: t.channelAccountId,
            name: 'surrogate_template',
            language: 'en_US',
            category: 'UTILITY',
            components: [{ type: 'BODY', text: 'Hi \ud83d{{1}}', example: { body_text: [['Ana']] } }],
          }),
      'components[0].text',
    ],
  ])(
    'when %s holds an unpaired surrogate, then 422 VALIDATION_ERROR names the field',
    async (_what, call, field) => {
      const res = await call();
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res)).toEqual([[field, `${field} must not contain unpaired UTF-16 surrogates`]]);
    },
  );

  it('when a text holds a surrogate pair (an emoji), then it is an ordinary character and the send is accepted', async () => {
    const phone = randomPhone();
    // A service window first, so a free-form text may be sent.
    await request(stack.sandboxUrl)
      .post('/_sandbox/inbound')
      .send({ phone_number_id: t.phoneNumberId, from: phone, text: 'hi' })
      .expect(200);
    await waitFor(
      async () =>
        (await postSend(stack, t, { phone, message_type: 'text', data: { text: 'ok \ud83d\udcac' } }))
          .status === 202,
      { what: 'a text in the service window' },
    );
  });

  it('when a campaign recipient row holds an unpaired surrogate, then that row alone fails like an invalid phone and the others are sent', async () => {
    const [good, badVariables, badName] = phones(3);
    const res = await postCampaign(stack, t, {
      recipients: [
        { phone: badVariables, variables: { '1': 'x\ud800' } },
        { phone: good },
        { phone: badName, name: 'Ana \udc00' },
        { phone: '1415\ud800' },
      ],
    }).expect(202);
    const id = res.body.data.campaign_id as string;
    const done = await waitForCampaign(stack, t, id, ['completed']);
    expect(done).toMatchObject({ total_count: 4, sent_count: 1, failed_count: 3 });
    const list = await allRecipients(stack, t, id);
    expect(list.map((r) => [r.phone, r.name, r.status, r.error_message])).toEqual([
      [badVariables, null, 'failed', INVALID_TEXT_RECIPIENT_ERROR],
      [good, null, 'sent', null],
      [badName, 'Ana \ufffd', 'failed', INVALID_TEXT_RECIPIENT_ERROR],
      ['1415\ufffd', null, 'failed', INVALID_PHONE_RECIPIENT_ERROR],
    ]);
  });
});

describe('unstorable text in a signed inbound body', () => {
  it('when one body holds tenant A’s delivered status and a customer text with NUL and an unpaired surrogate to tenant B, then A’s message is delivered and B receives the text with U+FFFD', async () => {
    const b = await createTenant(stack);
    // No automatic receipts from the sandbox: the only `delivered` is the one in the body below.
    await request(stack.sandboxUrl).put('/_sandbox/config').send({ status_delays_ms: [] }).expect(200);
    const received = await collectEvents(stack, ['message.received']);
    const logId = await sendTemplate(stack, t);
    const sent = await waitFor(
      async () => {
        const m = await readMessage(stack, t, logId);
        return m.status === 'sent' && m;
      },
      { what: 'message sent' },
    );
    const customer = randomPhone();
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: t.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: t.phoneNumberId },
                statuses: [
                  {
                    id: sent.provider_message_id,
                    status: 'delivered',
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    recipient_id: sent.to_phone,
                  },
                ],
              },
            },
          ],
        },
        {
          id: b.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550002222', phone_number_id: b.phoneNumberId },
                contacts: [{ profile: { name: 'Zoe\u0000' }, wa_id: customer }],
                messages: [
                  {
                    from: customer,
                    id: `wamid.${randomPhone()}`,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: 'where\u0000 is it \ud800?' },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    const raw = JSON.stringify(body);
    const secret = loadIngressConfig(testEnv()).INGRESS_APP_SECRET;
    const res = await request(ingress.url)
      .post('/api/webhooks/channel')
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`)
      .send(raw)
      .expect(200);

    await waitFor(async () => (await readMessage(stack, t, logId)).status === 'delivered', {
      what: 'A’s message delivered',
    });
    const text = await waitFor(() => received.find((e) => e.payload.from === customer), {
      what: 'B’s customer text',
    });
    expect(text.payload).toMatchObject({
      tenant_id: b.tenantId,
      text: 'where\ufffd is it \ufffd?',
      name: 'Zoe\ufffd',
    });
    const audit = await request(ingress.url)
      .get(`/admin/v1/inbound-events/${res.body.data.event_id as string}`)
      .set(ingress.internal())
      .expect(200);
    expect(audit.body.data).toMatchObject({ outcome: 'processed', published_count: 2, raw_body: raw });
  });
});

describe('sweeps take their rows one by one', () => {
  it('when the preparation sweep meets a stored list it cannot read, then the lists after it are prepared all the same', async () => {
    const deps = stack.campaign!.deps;
    // Two lists a crashed replica left behind, the older one damaged.
    const leftBehind = async (body: string) => {
      const id = newUlid();
      const uploadId = newUlid();
      await deps.unitOfWork.run(async (tx) => {
        await tx.uploads.insertUpload(uploadId, t.tenantId, body);
        await tx.campaigns.insert({
          id,
          tenantId: t.tenantId,
          channelAccountId: t.channelAccountId,
          name: null,
          status: 'preparing',
          templateName: 'hello_world',
          templateLanguage: 'en_US',
          templateCategory: 'UTILITY',
          templateComponents: [],
          templateParams: [],
          headerMedia: null,
          requestedCount: 1,
          scheduledAt: null,
          campaignGroupId: null,
          partNumber: null,
          partsTotal: null,
          idempotencyKey: null,
          uploadId,
          uploadOffset: 0,
        });
      });
      return id;
    };
    const damaged = await leftBehind('{"recipients": [{"phone": ');
    const fine = await leftBehind(JSON.stringify({ recipients: [{ phone: randomPhone() }] }));

    await waitForCampaign(stack, t, fine, ['completed']);
    expect((await readCampaign(stack, t, damaged)).status).toBe('preparing');
  });
});
