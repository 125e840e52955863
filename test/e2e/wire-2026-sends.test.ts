import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { collectEvents, inboundText, publishInbound, statusReport } from '../support/events';
import { postSend, readMessage, sandboxSends, sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

/**
 * CONTRACT.md, "Holds, errors and their rules", against the sandbox playing the 2026 wire (the product's default
 * Graph API version, v24.0): a held send, the retry rule of each code, `error_code` and `played_at`.
 */
describe('sends on the 2026 wire: holds, error codes and their retry rules', () => {
  let stack: Stack;
  let t: TenantFixture;

  beforeAll(async () => {
    stack = await startStack({
      messagingEnv: {
        SEND_RETRY_BASE_MS: '100',
        SEND_MAX_ATTEMPTS: '2',
        UPSTREAM_RETRY_WINDOW_MS: '3000',
        // The operator's card, inline: North America (1) has its own prices, everyone else the default's.
        PRICING_RATE_CARD: JSON.stringify({
          currency: 'EUR',
          label: 'test card',
          default: { utility: 0.01, marketing: 0.05 },
          markets: { '1': { utility: 0.0034 }, '44': { utility: 0.02 } },
        }),
      },
    });
    t = await createTenant(stack);
  });
  afterAll(() => stack.stop());

  const fault = (phone: string, rule: Record<string, unknown>) =>
    request(stack.sandboxUrl)
      .post('/_sandbox/faults')
      .send({ match: { to: phone }, ...rule })
      .expect(201);

  it('when the upstream holds a send for quality assessment, then it is sent and held until a later status', async () => {
    const phone = randomPhone();
    await fault(phone, { held: true });
    const id = await sendTemplate(stack, t, { phone });
    const held = await waitForStatus(stack, t, id, ['sent']);
    expect(held).toMatchObject({ status: 'sent', held: true, error_code: null, played_at: null });

    await publishInbound(
      stack,
      'inbound.status',
      statusReport(t, held.provider_message_id as string, 'delivered'),
    );
    const delivered = await waitForStatus(stack, t, id, ['delivered']);
    expect(delivered.held).toBe(false);
  });

  it('when a held send is dropped (132015), then it fails with that error code', async () => {
    const phone = randomPhone();
    await fault(phone, { held: true });
    const id = await sendTemplate(stack, t, { phone });
    const held = await waitForStatus(stack, t, id, ['sent']);
    await publishInbound(
      stack,
      'inbound.status',
      statusReport(t, held.provider_message_id as string, 'failed', [
        { code: 132015, title: 'Message dropped after being held' },
      ]),
    );
    const failed = await waitForStatus(stack, t, id, ['failed']);
    expect(failed).toMatchObject({ held: false, error_code: 132015 });
    expect(failed.error_message).toMatch(/^upstream error 132015: /);
  });

  it.each([130429, 131056, 131057])(
    'when the upstream answers %i more times than the attempts allow, then the message is retried and sent',
    async (code) => {
      const phone = randomPhone();
      // Three refusals: more than SEND_MAX_ATTEMPTS (2), which bounds transient errors, not these.
      await fault(phone, { error_code: code, times: 3 });
      const id = await sendTemplate(stack, t, { phone });
      const sent = await waitForStatus(stack, t, id, ['sent', 'failed'], 15_000);
      expect(sent).toMatchObject({ status: 'sent', error_code: null });
      expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(4);
    },
  );

  it('when the upstream keeps answering 131057 past the retry window, then the message fails with that code', async () => {
    const phone = randomPhone();
    await fault(phone, { error_code: 131057 });
    const id = await sendTemplate(stack, t, { phone });
    const failed = await waitForStatus(stack, t, id, ['failed'], 20_000);
    expect(failed.error_code).toBe(131057);
    // Tried for the whole window (3 s, the waits doubling from 100 ms), never failed on the attempts (2).
    const sends = await sandboxSends(stack, `to=${phone}`);
    expect(sends.length).toBeGreaterThan(2);
    const span = new Date(sends[sends.length - 1].at).getTime() - new Date(sends[0].at).getTime();
    expect(span).toBeGreaterThanOrEqual(2_000);
  });

  it.each([130472, 131026, 131062])(
    'when the upstream answers %i, then the message fails at once with that code and is never retried',
    async (code) => {
      const phone = randomPhone();
      await fault(phone, { error_code: code });
      const id = await sendTemplate(stack, t, { phone });
      const failed = await waitForStatus(stack, t, id, ['failed']);
      expect(failed.error_code).toBe(code);
      expect(failed.error_message).toMatch(new RegExp(`^upstream error ${code}: `));
      await new Promise((r) => setTimeout(r, 500));
      expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(1);
    },
  );

  it('when a voice message is played after read, then played_at is set, the status stays read, and no event is sent', async () => {
    const events = await collectEvents(stack, ['message.status_updated']);
    const id = await sendTemplate(stack, t);
    const sent = await waitForStatus(stack, t, id, ['sent']);
    const wamid = sent.provider_message_id as string;
    await publishInbound(stack, 'inbound.status', statusReport(t, wamid, 'read'));
    await waitForStatus(stack, t, id, ['read']);
    await publishInbound(stack, 'inbound.status', statusReport(t, wamid, 'played'));
    const played = await waitFor(
      async () => {
        const m = await readMessage(stack, t, id);
        return m.played_at !== null ? m : undefined;
      },
      { what: 'played_at' },
    );
    expect(played.status).toBe('read');
    expect(Date.parse(played.played_at as string)).not.toBeNaN();
    // sent and read were told; played was not (given time to arrive, were it sent).
    await waitFor(() => events.filter((e) => e.payload.message_log_id === id).length >= 2 || undefined, {
      what: 'sent and read events',
    });
    await new Promise((r) => setTimeout(r, 500));
    const told = events.filter((e) => e.payload.message_log_id === id).map((e) => e.payload.status as string);
    expect(told.sort()).toEqual(['read', 'sent']);
  });

  it('when a message is read through the API, then every 2026 field is on it', async () => {
    const id = await sendTemplate(stack, t);
    const m = await waitForStatus(stack, t, id, ['sent']);
    expect(m).toMatchObject({ error_code: null, held: false, played_at: null });
    const list = await request(stack.gatewayUrl).get('/api/v1/messages?per_page=5').set(t.auth).expect(200);
    for (const item of list.body.data.messages as Array<Record<string, unknown>>) {
      expect(item).toHaveProperty('error_code');
      expect(typeof item.held).toBe('boolean');
      expect(item).toHaveProperty('played_at');
    }
  });

  /** A status report priced as the 2026 wire prices it (`pricing` with `pricing_model`, `type`, `category`). */
  const priced = (t2: TenantFixture, wamid: string, status: string, type: string, category: string) => ({
    ...statusReport(t2, wamid, status),
    pricing_category: category,
    pricing: { billable: type === 'regular', pricing_model: 'PMP', type, category },
  });

  it('when a status report prices a message, then the log shows its pricing and its cost by the rate card', async () => {
    const id = await sendTemplate(stack, t);
    const sent = await waitForStatus(stack, t, id, ['sent']);
    expect(sent).toMatchObject({ pricing: null, cost_amount: 0 });
    const wamid = sent.provider_message_id as string;
    await publishInbound(stack, 'inbound.status', priced(t, wamid, 'sent', 'regular', 'utility'));
    const costed = await waitFor(
      async () => {
        const m = await readMessage(stack, t, id);
        return m.pricing !== null ? m : undefined;
      },
      { what: 'pricing recorded' },
    );
    // The phone is +1 415...: the card's market 1 price for utility, in the card's currency.
    expect(costed).toMatchObject({
      status: 'sent',
      pricing: { model: 'PMP', type: 'regular', category: 'utility' },
      cost_amount: 0.0034,
      cost_currency: 'EUR',
    });
    // The overview counts it today, in its category (the only priced message of this tenant so far).
    const stats = async () =>
      (await request(stack.gatewayUrl).get('/api/v1/stats').set(t.auth).expect(200)).body.data as {
        cost_currency: string;
        cost_30d: number;
        cost_daily: Array<{ start: string; total: number; by_category: Record<string, number> }>;
      };
    const priced1 = await stats();
    expect(priced1.cost_currency).toBe('EUR');
    expect(priced1.cost_30d).toBe(0.0034);
    expect(priced1.cost_daily).toHaveLength(30);
    // Today's bucket (the last, unless the clock passed midnight UTC since the report: then the one before).
    expect(priced1.cost_daily.filter((d) => d.total !== 0)).toEqual([
      { start: expect.any(String), total: 0.0034, by_category: { utility: 0.0034 } },
    ]);

    // The latest report wins: a later one saying the message was free (a customer-service window) costs 0.
    await publishInbound(
      stack,
      'inbound.status',
      priced(t, wamid, 'delivered', 'free_customer_service', 'service'),
    );
    const free = await waitForStatus(stack, t, id, ['delivered']);
    expect(free).toMatchObject({
      pricing: { model: 'PMP', type: 'free_customer_service', category: 'service' },
      cost_amount: 0,
    });
    // Repriced: its cost moved out of the day's total.
    expect((await stats()).cost_30d).toBe(0);
  });

  it('when a send names the customer by user id, then it goes upstream as recipient and its log shows no phone', async () => {
    const userId = `US.${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const res = await postSend(stack, t, { phone: undefined, user_id: userId }).expect(202);
    const id = res.body.data.message_log_id as number;
    const sent = await waitForStatus(stack, t, id, ['sent']);
    expect(sent).toMatchObject({ to_phone: null, to_user_id: userId });
    const [call] = (await sandboxSends(stack, `user_id=${userId}`)) as unknown as Array<{
      body: Record<string, unknown>;
    }>;
    expect(call.body).toMatchObject({ recipient: userId });
    expect(call.body).not.toHaveProperty('to');
    const listed = await request(stack.gatewayUrl)
      .get(`/api/v1/messages?to_user_id=${userId}`)
      .set(t.auth)
      .expect(200);
    const messages = listed.body.data.messages as Array<{ message_log_id: number }>;
    expect(messages.map((m) => m.message_log_id)).toEqual([id]);
  });

  it('when a send names the customer by phone and user id, or by neither, then 422 names both fields', async () => {
    const both = await postSend(stack, t, { user_id: 'US.13491208655302741918' }).expect(422);
    expect(both.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(both.body.error.details)).toMatch(/phone.*user_id/);
    const neither = await postSend(stack, t, { phone: undefined }).expect(422);
    expect(neither.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(neither.body.error.details)).toMatch(/phone.*user_id/);
  });

  it('when a customer known by user id only wrote, then a text to their user id is inside their window', async () => {
    const userId = `BR.${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const text = { phone: undefined, user_id: userId, message_type: 'text', data: { text: 'Hi!' } };
    const outside = await postSend(stack, t, text).expect(422);
    expect(outside.body.error.code).toBe('OUTSIDE_SERVICE_WINDOW');
    await publishInbound(stack, 'inbound.message', {
      ...inboundText(t, '0', 'hello'),
      from: null,
      from_user_id: userId,
      username: '@someone',
    });
    await waitFor(async () => (await postSend(stack, t, text)).status === 202 || undefined, {
      what: 'the text accepted inside the window',
    });
  });

  it('when a priced report overtakes the answer to its send, then it prices the message it names all the same', async () => {
    const phone = randomPhone();
    // The upstream takes the call and holds its answer; meanwhile its sent report, naming the attempt, arrives.
    await fault(phone, { delay_ms: 1500, times: 1 });
    const id = await sendTemplate(stack, t, { phone });
    await waitFor(async () => (await sandboxSends(stack, `to=${phone}`)).length === 1 || undefined, {
      what: 'the call held by the upstream',
    });
    await publishInbound(stack, 'inbound.status', {
      ...priced(t, `wamid.overtaking.${Date.now()}`, 'sent', 'regular', 'utility'),
      biz_opaque_callback_data: `bm1:${id}:1`,
    });
    const costed = await waitFor(
      async () => {
        const m = await readMessage(stack, t, id);
        return m.pricing !== null ? m : undefined;
      },
      { what: 'the overtaking report priced the message' },
    );
    expect(costed).toMatchObject({ status: 'sent', pricing: { category: 'utility' }, cost_amount: 0.0034 });
  });
});
