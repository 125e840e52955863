import { request as httpRequest } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { MESSAGE_EXPORT_COLUMNS } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import { csvObjects, parseCsv, textBody } from '../support/csv';
import { orderUpdateData } from '../support/messages';
import { RawClient } from '../support/raw-http';
import { waitFor } from '@bm/platform/testing';
import {
  ADMIN_TOKEN,
  createTenant,
  randomPhone,
  startStack,
  type Stack,
  type TenantFixture,
} from '../support/stack';

describe('POST /api/v1/messages/send through the gateway', () => {
  let stack: Stack;
  let t: TenantFixture;

  beforeAll(async () => {
    stack = await startStack();
    t = await createTenant(stack);
  });
  afterAll(() => stack.stop());

  const send = (body: Record<string, unknown>, tenant = t) =>
    request(stack.gatewayUrl).post('/api/v1/messages/send').set(tenant.auth).send(body);
  const getMessage = (id: number, tenant = t) =>
    request(stack.gatewayUrl).get(`/api/v1/messages/${id}`).set(tenant.auth);

  it('when a template is sent, then 202 queued with its category, and the message reaches sent with a provider id', async () => {
    const phone = randomPhone();
    const res = await send({
      channel_account_id: t.channelAccountId,
      phone: `+${phone}`,
      message_type: 'template',
      data: { name: 'hello_world' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      success: true,
      data: {
        status: 'queued',
        message_log_id: expect.any(Number),
        conversation_category: 'UTILITY',
        cost: 0,
        scheduled_at: null,
      },
    });
    const id = res.body.data.message_log_id as number;
    const sent = await waitFor(
      async () => {
        const m = await getMessage(id);
        return m.body.data.status === 'sent' ? (m.body.data as Record<string, unknown>) : undefined;
      },
      { what: 'status sent' },
    );
    expect(sent).toEqual({
      message_log_id: id,
      status: 'sent',
      to_phone: phone,
      to_user_id: null,
      message_type: 'template',
      provider_message_id: expect.stringMatching(/^wamid\./),
      sent_at: expect.any(String),
      delivered_at: null,
      read_at: null,
      failed_at: null,
      scheduled_at: null,
      cost_amount: 0,
      cost_currency: 'USD',
      error_message: null,
      error_code: null,
      held: false,
      played_at: null,
      pricing: null,
      created_at: expect.any(String),
      retry_count: 0,
      retry_of_message_log_id: null,
      retried_by_message_log_id: null,
      campaign_id: null,
      channel_account_id: t.channelAccountId,
      from_phone: '15550001111',
      content: { type: 'template', name: 'hello_world', language: 'en_US', components: [] },
    });
    const sends = await request(stack.sandboxUrl).get(`/_sandbox/sends?to=${phone}`);
    expect(sends.body.sends ?? sends.body.data ?? sends.body).toHaveLength(1);
  });

  it('when a text goes to a customer who never wrote, then 422 OUTSIDE_SERVICE_WINDOW', async () => {
    const res = await send({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'text',
      data: { text: 'hi' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('OUTSIDE_SERVICE_WINDOW');
  });

  it('when fields are missing or wrong, then 422 VALIDATION_ERROR lists every one', async () => {
    const res = await send({ phone: '123', message_type: 'text', data: {} });
    expect(res.status).toBe(422);
    const fields = (res.body.error.details.errors as Array<{ field: string }>).map((e) => e.field).sort();
    expect(fields).toEqual(['channel_account_id', 'data.text', 'phone']);
  });

  it.each(['null', '"text"', '42', '[]'])(
    'when the body is JSON but not an object (%s), then 422 VALIDATION_ERROR, not 400',
    async (body) => {
      const res = await request(stack.gatewayUrl)
        .post('/api/v1/messages/send')
        .set({ ...t.auth, 'content-type': 'application/json' })
        .send(body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    },
  );

  it('when the service refuses a large body before reading it, then the next request on the same connection is answered', async () => {
    const client = new RawClient(stack.gatewayUrl, 1);
    try {
      const refused = await client.send({
        method: 'POST',
        path: '/api/v1/messages/send',
        headers: { authorization: t.auth.Authorization, 'content-type': 'application/xml' },
        body: Buffer.alloc(2 * 1024 * 1024, 'x'),
      });
      expect(refused.status).toBe(415);
      // One socket: the next request goes where the unread rest of the body was (the gateway closes that one).
      const next = await Promise.race([
        client.send({ method: 'GET', path: '/api/v1/messages?per_page=1', headers: t.auth }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5_000)),
      ]);
      expect(next.status).toBe(200);
    } finally {
      client.close();
    }
  });

  it("when the account is another tenant's or unknown, then 422 NO_ACTIVE_ACCOUNT", async () => {
    const other = await createTenant(stack);
    const res = await send({
      channel_account_id: other.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name: 'hello_world' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('NO_ACTIVE_ACCOUNT');
  });

  it.each([
    ['no_such_template', undefined, 'TEMPLATE_NOT_FOUND'],
    ['pending_tpl', undefined, 'TEMPLATE_NOT_APPROVED'],
    ['promo_paused', undefined, 'TEMPLATE_PAUSED'],
    ['otp_code', [{ type: 'body', parameters: [] }], 'TEMPLATE_PARAMETER_MISMATCH'],
    [
      'order_update',
      [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Mark' },
            { type: 'text', text: '#1' },
          ],
        },
      ],
      'TEMPLATE_HEADER_MEDIA_REQUIRED',
    ],
  ])('when the template is %s with components %j, then 422 %s', async (name, components, code) => {
    const res = await send({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name, components },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe(code);
  });

  it('when a media header parameter has neither link nor id (image, video, document), then 422 TEMPLATE_HEADER_MEDIA_REQUIRED', async () => {
    // A tenant whose WABA also has a VIDEO and a DOCUMENT header template, beside the seeded IMAGE one.
    const media = await createTenant(stack);
    const header = (format: string) => ({
      type: 'HEADER',
      format,
      example: { header_handle: [`https://example.com/sample.${format.toLowerCase()}`] },
    });
    const body = { type: 'BODY', text: 'Hi {{1}}' };
    await request(stack.sandboxUrl)
      .put(`/_sandbox/templates/${media.wabaId}`)
      .send([
        { name: 'clip_note', category: 'MARKETING', status: 'APPROVED', components: [header('VIDEO'), body] },
        {
          name: 'invoice_note',
          category: 'UTILITY',
          status: 'APPROVED',
          components: [header('DOCUMENT'), body],
        },
        {
          name: 'photo_note',
          category: 'MARKETING',
          status: 'APPROVED',
          components: [header('IMAGE'), body],
        },
      ])
      .expect(200);
    await request(stack.gatewayUrl)
      .post(`/admin/v1/channel-accounts/${media.channelAccountId}/templates/sync`)
      .set({ Authorization: `Bearer ${ADMIN_TOKEN}` })
      .expect(200);
    const sendWith = (name: string, kind: string, value: Record<string, unknown>) =>
      send(
        {
          channel_account_id: media.channelAccountId,
          phone: randomPhone(),
          message_type: 'template',
          data: {
            name,
            components: [
              { type: 'header', parameters: [{ type: kind, [kind]: value }] },
              { type: 'body', parameters: [{ type: 'text', text: 'Mark' }] },
            ],
          },
        },
        media,
      );

    for (const [name, kind] of [
      ['photo_note', 'image'],
      ['clip_note', 'video'],
      ['invoice_note', 'document'],
    ]) {
      for (const value of [{}, { caption: 'no media here' }]) {
        const res = await sendWith(name, kind, value);
        expect([name, res.status, res.body.error?.code]).toEqual([
          name,
          422,
          'TEMPLATE_HEADER_MEDIA_REQUIRED',
        ]);
        expect(res.body.error.details).toMatchObject({ header_format: kind.toUpperCase() });
      }
    }
    // Media by id still goes; link and id together are still a validation error.
    expect((await sendWith('clip_note', 'video', { id: '1234567890' })).status).toBe(202);
    const both = await sendWith('photo_note', 'image', { link: 'https://example.com/a.jpg', id: '1' });
    expect([both.status, both.body.error.code]).toEqual([422, 'VALIDATION_ERROR']);
  });

  it('when a media parameter outside the header has neither link nor id, then it is still 422 VALIDATION_ERROR', async () => {
    const res = await send({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name: 'otp_code', components: [{ type: 'body', parameters: [{ type: 'image', image: {} }] }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.errors).toEqual([
      { field: 'data.components[0].parameters[0].image', message: expect.stringContaining('link, id') },
    ]);
  });

  it('when a template with a media header carries the media, then it is accepted as MARKETING', async () => {
    const res = await send({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: orderUpdateData('Mark', '#1'),
    });
    expect(res.status).toBe(202);
    expect(res.body.data.conversation_category).toBe('MARKETING');
  });

  it('when another tenant asks for the message, then 404 MESSAGE_NOT_FOUND, also for malformed ids', async () => {
    const res = await send({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name: 'hello_world' },
    });
    const other = await createTenant(stack);
    for (const id of [String(res.body.data.message_log_id), 'abc', '0', '99999999999']) {
      const r = await request(stack.gatewayUrl).get(`/api/v1/messages/${id}`).set(other.auth);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('MESSAGE_NOT_FOUND');
    }
  });
  it('when the client sends Expect: 100-continue (as curl does above 1 MB), then the body is forwarded and accepted', async () => {
    const body = JSON.stringify({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name: 'hello_world' },
    });
    // Like curl: the headers first, the body only once the server has answered 100 Continue.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${stack.gatewayUrl}/api/v1/messages/send`, {
        method: 'POST',
        headers: {
          ...t.auth,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      });
      req.on('continue', () => req.end(body));
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
    });
    expect(answer.status).toBe(202);
    expect(JSON.parse(answer.body)).toMatchObject({ success: true, data: { status: 'queued' } });
  });

  describe('what a support lead looks for: content, search by id or wamid, CSV export', () => {
    let other: TenantFixture;
    let db: Client;
    beforeAll(async () => {
      other = await createTenant(stack);
      db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await db.connect();
    });
    afterAll(() => db.end());

    const list = (query: string, tenant = t) =>
      request(stack.gatewayUrl).get(`/api/v1/messages?${query}`).set(tenant.auth);
    const exportCsv = (query: string, tenant = t) =>
      request(stack.gatewayUrl)
        .get(`/api/v1/messages/export?${query}`)
        .set(tenant.auth)
        .buffer(true)
        .parse(textBody);
    const idsOf = (res: request.Response) =>
      (res.body.data.messages as Array<{ message_log_id: number }>).map((m) => m.message_log_id);

    it('when a template with header media and body values is sent, then its page and the list show its content and from-number, and message_id or wamid finds it alone', async () => {
      const data = orderUpdateData('Ann', '=1+2');
      const id = (
        await send({
          channel_account_id: t.channelAccountId,
          phone: randomPhone(),
          message_type: 'template',
          data,
        }).expect(202)
      ).body.data.message_log_id as number;
      const sent = await waitFor(
        async () => {
          const m = (await getMessage(id)).body.data as Record<string, unknown>;
          return m.status === 'sent' && m;
        },
        { what: 'status sent' },
      );
      const wamid = sent.provider_message_id as string;

      expect(sent).toMatchObject({
        from_phone: '15550001111',
        content: { type: 'template', name: 'order_update', language: 'en_US', components: data.components },
      });
      const byId = await list(`message_id=${id}`).expect(200);
      expect(idsOf(byId)).toEqual([id]);
      expect(byId.body.data.messages[0]).toEqual(sent);
      expect(idsOf(await list(`wamid=${encodeURIComponent(wamid)}`).expect(200))).toEqual([id]);
      expect(idsOf(await list(`message_id=${id}&status=failed`).expect(200))).toEqual([]);
      expect(idsOf(await list(`message_id=${id}`, other).expect(200))).toEqual([]);
      expect(idsOf(await list(`wamid=${encodeURIComponent(wamid)}`, other).expect(200))).toEqual([]);
      expect((await list('message_id=abc').expect(422)).body.error.code).toBe('VALIDATION_ERROR');
      const exported = csvObjects(
        (await exportCsv(`wamid=${encodeURIComponent(wamid)}`).expect(200)).body as string,
      );
      expect(exported).toEqual([
        expect.objectContaining({
          id: String(id),
          from: '15550001111',
          type: 'template',
          template: 'order_update',
          language: 'en_US',
          text_or_parameters: 'image:https://example.com/a.jpg | Ann | =1+2',
          status: 'sent',
          wamid,
        }),
      ]);
    });

    it('when more messages than one export page match, then the CSV streams each once, newest first, escaped; another tenant exports none of them', async () => {
      const campaignId = newUlid();
      const tricky = ['=HYPERLINK("http://x")', 'He said "hi", then\nleft', '+1 cell', '@sum', '-2', 'plain'];
      const inserted = await db.query<{ id: string }>(
        `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
                conversation_category, status, campaign_id, error_code, error_message)
         SELECT $1, $2, '1415' || lpad(g::text, 7, '0'), 'text', jsonb_build_object('text', ($4::text[])[1 + g % 6]),
                'SERVICE', CASE WHEN g % 2 = 0 THEN 'failed' ELSE 'delivered' END, $3,
                CASE WHEN g % 2 = 0 THEN 131026 END, CASE WHEN g % 2 = 0 THEN 'undeliverable, "retry"' END
           FROM generate_series(1, 1100) g RETURNING id`,
        [t.tenantId, t.channelAccountId, campaignId, tricky],
      );
      const ids = inserted.rows.map((r) => Number(r.id)).sort((a, b) => b - a);

      const res = await exportCsv(`campaign_id=${campaignId}`).expect(200);

      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="messages-.*\.csv"$/);
      // Streamed through the gateway as it was read: chunked, no length known in advance.
      expect(res.headers['content-length']).toBeUndefined();
      expect(parseCsv(res.body as string)[0]).toEqual([...MESSAGE_EXPORT_COLUMNS]);
      const rows = csvObjects(res.body as string);
      expect(rows.map((r) => Number(r.id))).toEqual(ids);
      const texts = new Set(rows.map((r) => r.text_or_parameters));
      expect(texts).toEqual(
        new Set([`'=HYPERLINK("http://x")`, 'He said "hi", then\nleft', "'+1 cell", "'@sum", "'-2", 'plain']),
      );
      expect(rows.find((r) => r.status === 'failed')).toMatchObject({
        error: '131026: undeliverable, "retry"',
        from: '15550001111',
        campaign_id: campaignId,
        type: 'text',
        template: '',
      });
      const foreign = await exportCsv(`campaign_id=${campaignId}`, other).expect(200);
      expect(parseCsv(foreign.body as string)).toHaveLength(1);
    });
  });
});
