import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('scheduled sends and Idempotency-Key', () => {
  let stack: Stack;
  let t: TenantFixture;

  beforeAll(async () => {
    stack = await startStack();
    t = await createTenant(stack);
  });
  afterAll(() => stack.stop());

  const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request(stack.gatewayUrl)
      .post('/api/v1/messages/send')
      .set({ ...t.auth, ...headers })
      .send({
        channel_account_id: t.channelAccountId,
        phone: randomPhone(),
        message_type: 'template',
        data: { name: 'hello_world' },
        ...body,
      });

  it.each([
    [
      'Asia/Riyadh wall-clock time',
      { scheduled_at: '2030-06-01T12:30:00', timezone: 'Asia/Riyadh' },
      '2030-06-01T09:30:00.000Z',
    ],
    [
      'an explicit offset, which wins over timezone',
      { scheduled_at: '2030-06-01T12:30:00+02:00', timezone: 'Asia/Riyadh' },
      '2030-06-01T10:30:00.000Z',
    ],
    ['no timezone (UTC)', { scheduled_at: '2030-06-01T12:30:00' }, '2030-06-01T12:30:00.000Z'],
    [
      'a New York time in the spring-forward gap',
      { scheduled_at: '2030-03-10T02:30:00', timezone: 'America/New_York' },
      '2030-03-10T06:30:00.000Z',
    ],
    [
      'a New York time repeated in the autumn overlap',
      { scheduled_at: '2030-11-03T01:30:00', timezone: 'America/New_York' },
      '2030-11-03T05:30:00.000Z',
    ],
    [
      'a New York time after the autumn change',
      { scheduled_at: '2030-11-03T03:30:00', timezone: 'America/New_York' },
      '2030-11-03T08:30:00.000Z',
    ],
  ])(
    'when scheduled with %s, then it is scheduled at the right UTC instant',
    async (_what, body, expected) => {
      const res = await send(body).expect(202);
      expect(res.body.data).toMatchObject({ status: 'scheduled', scheduled_at: expected });
      const log = await request(stack.gatewayUrl)
        .get(`/api/v1/messages/${res.body.data.message_log_id}`)
        .set(t.auth)
        .expect(200);
      expect(log.body.data).toMatchObject({ status: 'scheduled', scheduled_at: expected, sent_at: null });
    },
  );

  it('when scheduled_at is in the past or the timezone is unknown, then 422 VALIDATION_ERROR on that field', async () => {
    const past = await send({ scheduled_at: '2020-01-01T00:00:00Z' }).expect(422);
    expect(past.body.error.details.errors).toEqual([
      { field: 'scheduled_at', message: expect.stringMatching(/future/) },
    ]);
    const zone = await send({ scheduled_at: '2030-01-01T00:00:00', timezone: 'Mars/Olympus' }).expect(422);
    expect(zone.body.error.details.errors[0].field).toBe('timezone');
  });

  it('when the time of a scheduled message comes, then it is queued and sent once', async () => {
    const phone = randomPhone();
    const at = new Date(Date.now() + 1500).toISOString();
    const res = await send({ phone, scheduled_at: at }).expect(202);
    const id = res.body.data.message_log_id as number;
    const sent = await waitFor(
      async () => {
        const m = await request(stack.gatewayUrl).get(`/api/v1/messages/${id}`).set(t.auth);
        return m.body.data.status === 'sent' ? (m.body.data as Record<string, unknown>) : undefined;
      },
      { what: 'scheduled message sent' },
    );
    expect(new Date(sent.sent_at as string).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
    expect(new Date(sent.sent_at as string).getTime()).toBeLessThan(new Date(at).getTime() + 2000);
    const count = await request(stack.sandboxUrl).get(`/_sandbox/sends/count?to=${phone}`);
    expect(count.body.count).toBe(1);
  });

  it('when a scheduled message is cancelled, then it stays cancelled and a second cancel is 409', async () => {
    const res = await send({ scheduled_at: '2031-01-01T00:00:00Z' }).expect(202);
    const id = res.body.data.message_log_id as number;
    const cancelled = await request(stack.gatewayUrl)
      .post(`/api/v1/messages/${id}/cancel`)
      .set(t.auth)
      .expect(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    const again = await request(stack.gatewayUrl)
      .post(`/api/v1/messages/${id}/cancel`)
      .set(t.auth)
      .expect(409);
    expect(again.body.error).toEqual({
      code: 'MESSAGE_NOT_CANCELLABLE',
      message: expect.any(String),
      details: { status: 'cancelled' },
    });
  });

  it('when a request is replayed with the same Idempotency-Key, then the first answer comes back and nothing new is created', async () => {
    const key = `key-${Date.now()}`;
    const phone = randomPhone();
    const first = await send({ phone }, { 'Idempotency-Key': key }).expect(202);
    const second = await send({ phone }, { 'Idempotency-Key': key }).expect(202);
    expect(second.body).toEqual(first.body);
    const list = await request(stack.gatewayUrl)
      .get(`/api/v1/messages?to_phone=${phone}`)
      .set(t.auth)
      .expect(200);
    expect(list.body.data.messages).toHaveLength(1);
    const conflict = await send({ phone: randomPhone() }, { 'Idempotency-Key': key }).expect(409);
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');
  });

  it('when two identical keyed requests race, then one message is created', async () => {
    const key = `race-${Date.now()}`;
    const phone = randomPhone();
    const answers = await Promise.all([
      send({ phone }, { 'Idempotency-Key': key }),
      send({ phone }, { 'Idempotency-Key': key }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual(expect.arrayContaining([202]));
    for (const a of answers) expect([202, 409]).toContain(a.status);
    const list = await request(stack.gatewayUrl)
      .get(`/api/v1/messages?to_phone=${phone}`)
      .set(t.auth)
      .expect(200);
    expect(list.body.data.messages).toHaveLength(1);
  });
});
