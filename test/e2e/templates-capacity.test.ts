import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { collectEvents, publishInbound } from '../support/events';
import { orderUpdateData, postSend, waitForStatus } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('templates, opt-outs, upstream errors and tier capacity', () => {
  let stack: Stack;
  let t: TenantFixture;
  let events: Awaited<ReturnType<typeof collectEvents>>;

  beforeAll(async () => {
    stack = await startStack({ messagingEnv: { SEND_MAX_ATTEMPTS: '3', UPSTREAM_RETRY_WINDOW_MS: '2000' } });
    t = await createTenant(stack, 'TIER_50');
    events = await collectEvents(stack, ['template.submitted']);
  });
  afterAll(() => stack.stop());

  const internal = (path: string) => `${stack.messagingUrl}${path}`;
  const internalHeaders = () => ({
    'x-internal-token': 'test-internal-token-0123456789',
    'x-bm-tenant-id': String(t.tenantId),
  });
  const send = (body: Record<string, unknown>) => postSend(stack, t, body);
  const finalMessage = (id: number) => waitForStatus(stack, t, id, ['sent', 'failed'], 15_000);

  it('when a channel account is connected, then every page of templates is fetched and the app is subscribed', async () => {
    const res = await request(stack.gatewayUrl).get('/api/v1/templates').set(t.auth).expect(200);
    const templates = res.body.data.templates as Array<Record<string, unknown>>;
    expect(templates).toHaveLength(30);
    expect(templates.find((x) => x.name === 'order_update')).toEqual({
      id: expect.any(String),
      channel_account_id: t.channelAccountId,
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'MARKETING',
      header_format: 'IMAGE',
      header_sample_media_url: expect.stringMatching(/^https?:\/\//),
      components: expect.any(Array),
      flag: null,
      rejected_reason: null,
    });
    const approved = await request(stack.gatewayUrl)
      .get('/api/v1/templates?status=PAUSED')
      .set(t.auth)
      .expect(200);
    expect((approved.body.data.templates as Array<{ name: string }>).map((x) => x.name)).toEqual([
      'promo_paused',
    ]);
    const subscriptions = await request(stack.sandboxUrl).get('/_sandbox/subscriptions').expect(200);
    expect(JSON.stringify(subscriptions.body)).toContain(t.wabaId);
  });

  it('when a template is submitted, then it is stored PENDING and template.submitted is emitted', async () => {
    const res = await request(stack.gatewayUrl)
      .post('/api/v1/templates')
      .set(t.auth)
      .send({
        channel_account_id: t.channelAccountId,
        name: `welcome_${Date.now()}`,
        language: 'en_US',
        category: 'UTILITY',
        components: [
          { type: 'BODY', text: 'Welcome {{1}}, glad to have you.', example: { body_text: [['Ana']] } },
        ],
      });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'PENDING',
      category: 'UTILITY',
      channel_account_id: t.channelAccountId,
    });
    const event = await waitFor(() => events.find((e) => e.payload.template_id === res.body.data.id), {
      what: 'template.submitted',
    });
    expect(event.payload).toMatchObject({
      tenant_id: t.tenantId,
      name: res.body.data.name,
      status: 'PENDING',
      category: 'UTILITY',
    });
  });

  it('when a template breaks the upstream review rules, then 422 VALIDATION_ERROR names each field and nothing is submitted', async () => {
    const submit = (components: unknown[]) =>
      request(stack.gatewayUrl).post('/api/v1/templates').set(t.auth).send({
        channel_account_id: t.channelAccountId,
        name: 'broken_rules',
        language: 'en_US',
        category: 'MARKETING',
        components,
      });
    const fields = (res: request.Response) =>
      (res.body.error.details.errors as Array<{ field: string }>).map((e) => e.field);

    const res = await submit([
      { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}} and {{2}}' },
      { type: 'BODY', text: '{{1}}, order {{3}} ships', example: { body_text: [['Ana']] } },
      { type: 'FOOTER', text: 'Reply {{1}}' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Stop' },
          { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}' },
          { type: 'QUICK_REPLY', text: 'More' },
          { type: 'PHONE_NUMBER', text: 'Call', phone_number: 'call us' },
        ],
      },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toEqual([
      'components[0].text',
      'components[1].text',
      'components[1].text',
      'components[1].example.body_text',
      'components[2].text',
      'components[3].buttons[1].example',
      'components[3].buttons[3].phone_number',
      'components[3].buttons',
    ]);
    const media = await submit([
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Hello there' },
    ]);
    expect(media.status).toBe(422);
    expect(fields(media)).toEqual(['components[0].example.header_handle']);

    const listed = await request(stack.gatewayUrl).get('/api/v1/templates').set(t.auth).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain('broken_rules');

    const taken = await request(stack.gatewayUrl)
      .post('/api/v1/templates')
      .set(t.auth)
      .send({
        channel_account_id: t.channelAccountId,
        name: 'hello_world',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hello again' }],
      });
    expect(taken.status).toBe(422);
    expect(taken.body.error.details.errors).toEqual([
      { field: 'name', message: 'a template named hello_world already exists in en_US' },
    ]);
  });

  it('when a MARKETING template goes to an opted-out phone, then 422 RECIPIENT_OPTED_OUT; UTILITY still goes', async () => {
    const phone = randomPhone();
    await publishInbound(stack, 'opt_out.changed', {
      tenant_id: t.tenantId,
      phone,
      opted_out: true,
      source: 'keyword',
    });
    const marketing = {
      phone,
      data: orderUpdateData('Ana', '#7'),
    };
    await waitFor(async () => (await send(marketing)).status === 422, { what: 'opt-out applied' });
    const refused = await send(marketing);
    expect(refused.body.error.code).toBe('RECIPIENT_OPTED_OUT');
    await send({ phone }).expect(202);
  });

  it('when the upstream keeps answering 130429, then the send is retried past the attempts and fails naming the code once the retry window is over', async () => {
    const res = await send({ phone: randomPhone('9429') }).expect(202);
    const failed = await finalMessage(res.body.data.message_log_id as number);
    expect(failed.status).toBe('failed');
    expect(failed.error_code).toBe(130429);
    expect(failed.error_message).toMatch(/130429/);
    // Throughput refusals only ask for time (CONTRACT.md): tried for the 2 s window, more than the 3 attempts.
    const sends = (await request(stack.sandboxUrl).get(`/_sandbox/sends/count?to=${String(failed.to_phone)}`))
      .body as { count: number };
    expect(sends.count).toBeGreaterThan(3);
  });

  it('when the upstream answers once with 131000, then the retry succeeds', async () => {
    const phone = randomPhone();
    await request(stack.sandboxUrl)
      .post('/_sandbox/faults')
      .send({ match: { to: phone }, error_code: 131000, mode: 'sync', times: 1 })
      .expect(201);
    const res = await send({ phone }).expect(202);
    expect((await finalMessage(res.body.data.message_log_id as number)).status).toBe('sent');
  });

  it('when the upstream refuses the template parameters (132000), then the message fails at once naming the code', async () => {
    const phone = randomPhone();
    await request(stack.sandboxUrl)
      .post('/_sandbox/faults')
      .send({ match: { to: phone }, error_code: 132000, mode: 'sync' })
      .expect(201);
    const res = await send({ phone }).expect(202);
    const failed = await finalMessage(res.body.data.message_log_id as number);
    expect(failed).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/132000/) });
    expect((await request(stack.sandboxUrl).get(`/_sandbox/sends/count?to=${phone}`)).body.count).toBe(1);
  });

  it('when two reservations race for the last slots of a TIER_50 number, then only what fits is granted', async () => {
    const capacity = await request(internal(`/internal/v1/channel-accounts/${t.channelAccountId}/capacity`))
      .get('')
      .set(internalHeaders())
      .expect(200);
    const before = capacity.body.data as { daily_limit: number; used_today: number; remaining: number };
    expect(before.daily_limit).toBe(50);
    const reserve = (reference: string) =>
      request(internal(`/internal/v1/channel-accounts/${t.channelAccountId}/capacity/reservations`))
        .post('')
        .set(internalHeaders())
        .send({ reference, count: before.remaining });
    const [a, b] = await Promise.all([reserve('campaign-a'), reserve('campaign-b')]);
    const granted = [a.body.data.granted, b.body.data.granted].sort();
    expect(granted).toEqual([0, before.remaining]);
    const after = await request(internal(`/internal/v1/channel-accounts/${t.channelAccountId}/capacity`))
      .get('')
      .set(internalHeaders())
      .expect(200);
    expect(after.body.data).toMatchObject({ daily_limit: 50, remaining: 0 });
  });
});
