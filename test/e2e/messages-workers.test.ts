import request from 'supertest';
import { Client } from 'pg';
import { startTcpProxy, waitFor, type TcpProxy } from '@bm/platform/testing';
import { publishInbound, statusReport } from '../support/events';
import { readMessage, sandboxSends, sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

const messageStatus = (stack: Stack, t: TenantFixture, id: number) => readMessage(stack, t, id);

describe('send workers with two replicas', () => {
  let stack: Stack;
  let proxy: TcpProxy;

  beforeAll(async () => {
    proxy = await startTcpProxy('127.0.0.1', 5672);
    stack = await startStack({
      messagingReplicas: 2,
      replicaEnv: (i): Record<string, string> =>
        i === 0 ? { AMQP_URL: `amqp://guest:guest@127.0.0.1:${proxy.port}` } : {},
      messagingEnv: {
        ATTEMPT_GRACE_MS: '300',
        UPSTREAM_TIMEOUT_MS: '3000',
        UNKNOWN_OUTCOME_WINDOW_MS: '5000',
        // The option that never risks a duplicate (the default resends once).
        UNKNOWN_OUTCOME_POLICY: 'fail',
      },
    });
  });
  afterAll(async () => {
    await stack.stop();
    await proxy.close();
  });

  it('when 20 messages go out on a number capped at 5 per second, then no one-second window holds more than 5', async () => {
    const t = await createTenant(stack, 'TIER_1K', { throughput_per_second: 5 });
    const ids = await Promise.all(Array.from({ length: 20 }, () => sendTemplate(stack, t)));
    await waitFor(
      async () =>
        (await Promise.all(ids.map((id) => messageStatus(stack, t, id)))).every((m) => m.status === 'sent'),
      {
        timeoutMs: 15_000,
        what: 'all sent',
      },
    );
    const sends = (await sandboxSends(stack, `phone_number_id=${t.phoneNumberId}`)).filter(
      (s) => s.result === 'accepted',
    );
    expect(sends).toHaveLength(20);
    // Sends are paced evenly (at 96% of the rate) on one schedule in Redis shared by both replicas, so any
    // one-second window, wherever the sandbox's clock places it, holds at most 5: any 6 consecutive sends span
    // more than a second (a little jitter between the worker's timer and the sandbox's stamp allowed).
    const times = sends.map((x) => new Date(x.at).getTime()).sort((a, b) => a - b);
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(3800);
    for (let k = 5; k < times.length; k += 1) expect(times[k] - times[k - 5]).toBeGreaterThanOrEqual(990);
  });

  it('when a worker loses the broker in the middle of a send, then the redelivered command does not send again', async () => {
    const t = await createTenant(stack);
    const phone = randomPhone();
    await request(stack.sandboxUrl)
      .post('/_sandbox/faults')
      .send({ match: { to: phone }, delay_ms: 1500, times: 1 })
      .expect(201);
    const id = await sendTemplate(stack, t, { phone });
    const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    try {
      await waitFor(
        async () => {
          const r = await db.query('SELECT attempt_started_at FROM messaging.message_logs WHERE id = $1', [
            id,
          ]);
          return (r.rows[0] as { attempt_started_at: Date | null }).attempt_started_at !== null;
        },
        { what: 'attempt started' },
      );
    } finally {
      await db.end();
    }
    proxy.cut();
    await new Promise((r) => setTimeout(r, 200));
    proxy.restore();
    await waitFor(async () => (await messageStatus(stack, t, id)).status === 'sent', {
      timeoutMs: 10_000,
      what: 'sent',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(1);
  });

  /**
   * A message as a worker killed mid-attempt leaves it: queued, its first attempt recorded `startedAgo` and never
   * finished; `awaitingSlot` when it was still waiting for its throughput slot (it never reached the upstream).
   */
  async function abandonAttempt(awaitingSlot: boolean, startedAgo = '10 seconds') {
    const t = await createTenant(stack);
    const phone = randomPhone();
    const id = await sendTemplate(stack, t, { phone, scheduled_at: '2031-01-01T00:00:00Z' });
    const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    try {
      await db.query(
        `UPDATE messaging.message_logs SET status = 'queued', scheduled_at = NULL, send_attempts = 1,
                attempt_started_at = now() - $3::interval, awaiting_slot = $2 WHERE id = $1`,
        [id, awaitingSlot, startedAgo],
      );
    } finally {
      await db.end();
    }
    return { t, phone, id };
  }

  /** The abandoned attempt's message once settled, and what the upstream received for it. */
  async function abandonedAttempt(awaitingSlot: boolean) {
    const { t, phone, id } = await abandonAttempt(awaitingSlot);
    const settled = await waitFor(
      async () => {
        const m = await messageStatus(stack, t, id);
        return m.status === 'sent' || m.status === 'failed' ? m : undefined;
      },
      { what: 'settled', timeoutMs: 15_000 },
    );
    return { settled, sends: await sandboxSends(stack, `to=${phone}`) };
  }

  it('when a worker died after recording its attempt and no report names it within the window, then the message fails as unknown instead of being sent twice', async () => {
    const { settled, sends } = await abandonedAttempt(false);
    expect(settled.status).toBe('failed');
    expect(settled.error_message).toMatch(/outcome unknown/);
    expect(sends).toHaveLength(0);
  });

  it('when a worker died in the call and the upstream reports the attempt, then the message takes the wamid and status of the report from its own number', async () => {
    const { t, phone, id } = await abandonAttempt(false, '1 second');
    const wamid = `wamid.reported.${id}`;
    // Another deployment sending from another number writes the same format: its report is not this message's.
    await publishInbound(stack, 'inbound.status', {
      ...statusReport(t, `wamid.foreign.${id}`, 'sent'),
      phone_number_id: `9${t.phoneNumberId}`,
      biz_opaque_callback_data: `bm1:${id}:1`,
    });
    await publishInbound(stack, 'inbound.status', {
      ...statusReport(t, wamid, 'sent'),
      biz_opaque_callback_data: `bm1:${id}:1`,
    });
    const sent = await waitForStatus(stack, t, id, ['sent', 'failed']);
    expect(sent).toMatchObject({ status: 'sent', provider_message_id: wamid });
    expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(0);
  });

  it("when a worker died while its message awaited the number's slot, then the message is sent, once, instead of failing as unknown", async () => {
    const { settled, sends } = await abandonedAttempt(true);
    expect(settled.status).toBe('sent');
    expect(sends).toHaveLength(1);
  });
});

describe('the scheduler with two replicas', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ messagingReplicas: 2 });
  });
  afterAll(() => stack.stop());

  it('when 30 scheduled messages fall due, then each is sent exactly once', async () => {
    const t = await createTenant(stack);
    const at = new Date(Date.now() + 1200).toISOString();
    const phones = Array.from({ length: 30 }, () => randomPhone());
    const ids = await Promise.all(
      phones.map(
        async (phone) =>
          (
            await request(stack.gatewayUrl)
              .post('/api/v1/messages/send')
              .set(t.auth)
              .send({
                channel_account_id: t.channelAccountId,
                phone,
                message_type: 'template',
                data: { name: 'hello_world' },
                scheduled_at: at,
              })
              .expect(202)
          ).body.data.message_log_id as number,
      ),
    );
    await waitFor(
      async () =>
        (await Promise.all(ids.map((id) => messageStatus(stack, t, id)))).every((m) => m.status === 'sent'),
      {
        timeoutMs: 15_000,
        what: 'all scheduled messages sent',
      },
    );
    const sends = await sandboxSends(stack, `phone_number_id=${t.phoneNumberId}`);
    expect(sends).toHaveLength(30);
    expect(new Set(sends.map((s) => s.body.to)).size).toBe(30);
  });
});

describe('deliveries that cannot go out yet', () => {
  let stack: Stack;
  let redisProxy: TcpProxy;

  beforeAll(async () => {
    redisProxy = await startTcpProxy('127.0.0.1', 6379);
    stack = await startStack({
      messagingEnv: { REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`, STRANDED_AFTER_MS: '1000' },
    });
  });
  afterAll(async () => {
    await stack.stop();
    await redisProxy.close();
  });

  it('when Redis is away, then nothing is sent or failed, and the message goes out once it is back', async () => {
    const t = await createTenant(stack);
    const phone = randomPhone();
    redisProxy.cut();
    const id = await sendTemplate(stack, t, { phone });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await readMessage(stack, t, id)).status).toBe('queued');
    expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(0);
    redisProxy.restore();
    await waitFor(async () => (await readMessage(stack, t, id)).status === 'sent', {
      timeoutMs: 15_000,
      what: 'sent',
    });
    expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(1);
  });

  it('when a queued message lost its delivery command, then the scheduler gives it a new one', async () => {
    const t = await createTenant(stack);
    const phone = randomPhone();
    const id = await sendTemplate(stack, t, { phone, scheduled_at: '2031-01-01T00:00:00Z' });
    const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    try {
      // What a command dead-lettered during a database outage leaves: queued, no command anywhere.
      await db.query(
        `UPDATE messaging.message_logs SET status = 'queued', scheduled_at = NULL, updated_at = now() - interval '1 minute'
          WHERE id = $1`,
        [id],
      );
    } finally {
      await db.end();
    }
    await waitFor(async () => (await readMessage(stack, t, id)).status === 'sent', {
      timeoutMs: 10_000,
      what: 'sent',
    });
    expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(1);
  });
});
