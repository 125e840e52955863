import crypto, { createHmac } from 'node:crypto';
import request from 'supertest';
import { testEnv, waitFor } from '@bm/platform/testing';
import { AddressPolicy } from '../../services/webhook-dispatcher/src/domain/address-policy';
import { loadIngressConfig } from '../../services/webhook-ingress/src/config';
import { postCampaign, waitForCampaign } from '../support/campaigns';
import { startFullStack, type FullStack } from '../support/full-stack';
import { capturedLogText } from '../support/log-capture';
import { registerSecret } from '../support/secrets';
import { ADMIN_TOKEN, createTenant, randomPhone, type TenantFixture } from '../support/stack';

/**
 * Security checks not covered elsewhere (revoked keys: services/gateway/test/auth.test.ts; SSRF:
 * services/webhook-dispatcher/test/ssrf.test.ts and settings.test.ts; message and campaign reads of another
 * tenant: messages-send and campaigns tests). Every service runs in this process at LOG_LEVEL=debug; the run's log
 * capture (test/support/log-capture.ts) keeps this file's log lines, so the last test can scan them for the secrets
 * it used, beside the scan of the whole run's logs at its end (test/global-teardown.js).
 */
const ACCESS_TOKEN = `acc-${crypto.randomBytes(12).toString('hex')}`;
let full: FullStack;
let a: TenantFixture;
let b: TenantFixture;

beforeAll(async () => {
  const level = process.env.TEST_LOG_LEVEL;
  process.env.TEST_LOG_LEVEL = 'debug';
  try {
    full = await startFullStack();
  } finally {
    if (level === undefined) delete process.env.TEST_LOG_LEVEL;
    else process.env.TEST_LOG_LEVEL = level;
  }
  a = await createTenant(full.stack, 'TIER_1K', { access_token: ACCESS_TOKEN });
  b = await createTenant(full.stack);
}, 60_000);

afterAll(async () => {
  await full.stop();
});

const gw = () => request(full.gatewayUrl);

describe('tenant isolation: another tenant’s key gets 404 for every id it did not create', () => {
  it('when B cancels A’s scheduled message, then 404 MESSAGE_NOT_FOUND and the message stays scheduled', async () => {
    const sent = await gw()
      .post('/api/v1/messages/send')
      .set(a.auth)
      .send({
        channel_account_id: a.channelAccountId,
        phone: randomPhone(),
        message_type: 'template',
        data: { name: 'hello_world' },
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .expect(202);
    const id = String(sent.body.data.message_log_id);
    const res = await gw().post(`/api/v1/messages/${id}/cancel`).set(b.auth).expect(404);
    expect(res.body.error.code).toBe('MESSAGE_NOT_FOUND');
    const mine = await gw().get(`/api/v1/messages/${id}`).set(a.auth).expect(200);
    expect(mine.body.data.status).toBe('scheduled');
  });

  it('when B retries, pauses or resumes A’s campaign, then 404 CAMPAIGN_NOT_FOUND and it is unchanged', async () => {
    const created = await postCampaign(full.stack, a).expect(202);
    const id = created.body.data.campaign_id as string;
    const done = await waitForCampaign(full.stack, a, id, ['completed', 'failed'], 30_000);
    for (const action of ['retry', 'pause', 'resume', 'cancel']) {
      const res = await gw().post(`/api/v1/campaigns/${id}/${action}`).set(b.auth).expect(404);
      expect(res.body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    }
    const after = await gw().get(`/api/v1/campaigns/${id}`).set(a.auth).expect(200);
    expect(after.body.data.status).toBe(done.status);
  });

  it('when B reads A’s campaign recipients, then 404 CAMPAIGN_NOT_FOUND', async () => {
    const created = await postCampaign(full.stack, a).expect(202);
    const id = created.body.data.campaign_id as string;
    const res = await gw().get(`/api/v1/campaigns/${id}/recipients`).set(b.auth).expect(404);
    expect(res.body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    await gw().get(`/api/v1/campaigns/${id}/recipients`).set(a.auth).expect(200);
  });

  it('when B reads, replaces, switches or lists the sessions of A’s flow, then 404 FLOW_NOT_FOUND and it is unchanged', async () => {
    const flow = {
      channel_account_id: a.channelAccountId,
      name: 'Isolated',
      trigger: { type: 'keyword', keywords: ['isolated-menu'] },
      steps: [
        { id: 'hello', type: 'send_text', text: 'Hello', next: 'end' },
        { id: 'end', type: 'end' },
      ],
    };
    const created = await gw().post('/api/v1/flows').set(a.auth).send(flow).expect(201);
    const id = created.body.data.flow_id as string;
    const attempts = [
      gw().get(`/api/v1/flows/${id}`).set(b.auth),
      gw()
        .put(`/api/v1/flows/${id}`)
        .set(b.auth)
        .send({ ...flow, channel_account_id: b.channelAccountId, name: 'Taken' }),
      gw().post(`/api/v1/flows/${id}/activate`).set(b.auth),
      gw().post(`/api/v1/flows/${id}/deactivate`).set(b.auth),
      gw().get(`/api/v1/flows/${id}/sessions`).set(b.auth),
    ];
    for (const attempt of attempts) {
      const res = await attempt;
      expect([res.status, res.body.error?.code]).toEqual([404, 'FLOW_NOT_FOUND']);
    }
    const mine = await gw().get(`/api/v1/flows/${id}`).set(a.auth).expect(200);
    expect(mine.body.data).toMatchObject({ name: 'Isolated', channel_account_id: a.channelAccountId });
    const theirs = await gw().get('/api/v1/flows').set(b.auth).expect(200);
    expect(theirs.body.data.flows).toEqual([]);
  });

  it('when B redelivers A’s webhook delivery, then 404 DELIVERY_NOT_FOUND', async () => {
    await gw()
      .put('/api/v1/webhooks/settings')
      .set(a.auth)
      .send({ url: 'http://127.0.0.1:9/hook' })
      .expect(200);
    const ping = await gw().post('/api/v1/webhooks/test').set(a.auth).expect(202);
    const deliveryId = ping.body.data.delivery_id as string;
    const res = await gw()
      .post(`/api/v1/webhooks/deliveries/${deliveryId}/redeliver`)
      .set(b.auth)
      .expect(404);
    expect(res.body.error.code).toBe('DELIVERY_NOT_FOUND');
    const list = await gw().get('/api/v1/webhooks/deliveries').set(b.auth).expect(200);
    expect(list.body.data.deliveries).toEqual([]);
  });

  it('when B deletes a phone that is on A’s opt-out list, then A’s list keeps it', async () => {
    const phone = randomPhone();
    await gw().post('/api/v1/opt-outs').set(a.auth).send({ phone }).expect(201);
    const res = await gw().delete(`/api/v1/opt-outs/${phone}`).set(b.auth).expect(404);
    expect(res.body.error.code).toBe('OPT_OUT_NOT_FOUND');
    const list = await gw().get('/api/v1/opt-outs').set(a.auth).expect(200);
    expect((list.body.data.opt_outs as Array<{ phone: string }>).map((o) => o.phone)).toContain(phone);
    const theirs = await gw().get('/api/v1/opt-outs').set(b.auth).expect(200);
    expect(theirs.body.data.opt_outs).toEqual([]);
  });
});

describe('secrets are compared in constant time', () => {
  it('when an API key, the admin token, the internal token, the verify token or a signature is wrong, then crypto.timingSafeEqual decides', async () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    const ingress = loadIngressConfig(testEnv());
    const checks: Array<[string, () => Promise<unknown>]> = [
      [
        'API key',
        () =>
          gw()
            .get('/api/v1/messages')
            .set('Authorization', `${a.auth.Authorization.slice(0, -1)}x`)
            .expect(401),
      ],
      [
        'admin token',
        () => gw().post('/admin/v1/tenants').set('Authorization', `Bearer ${ADMIN_TOKEN}x`).expect(401),
      ],
      [
        'internal token',
        () =>
          request(full.stack.messagingUrl)
            .get('/api/v1/messages')
            .set('x-internal-token', 'wrong-token-0123456789')
            .expect(401),
      ],
      [
        'verify token',
        () =>
          gw()
            .get('/api/webhooks/channel?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1')
            .expect(403),
      ],
      [
        'signature',
        () => {
          const wrong = createHmac('sha256', `${ingress.INGRESS_APP_SECRET}x`).update('{}').digest('hex');
          return gw()
            .post('/api/webhooks/channel')
            .set({ 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${wrong}` })
            .send('{}')
            .expect(401);
        },
      ],
    ];
    try {
      for (const [what, call] of checks) {
        spy.mockClear();
        await call();
        expect([what, spy.mock.calls.length > 0]).toEqual([what, true]);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

describe('SSRF: loopback written in other notations (beyond the dispatcher’s own tests)', () => {
  it.each([
    'http://2130706433/hook',
    'http://0x7f000001/hook',
    'http://0x7f.0.0.1/hook',
    'http://0177.0.0.1/hook',
    'http://127.1/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://[0:0:0:0:0:0:0:1]/hook',
    'http://0/hook',
  ])('when a webhook URL is %s, then it is refused before any connection', (url) => {
    expect(new AddressPolicy(true, '').refuseUrl(url)).toMatch(/loopback|unspecified|reserved/);
  });
});

describe('security headers', () => {
  it('when the gateway answers, whatever the outcome, then helmet’s headers are on it', async () => {
    for (const res of [
      await gw().get('/api/health'),
      await gw().get('/api/v1/messages').set(a.auth),
      await gw().get('/api/v1/messages'),
      await gw().get('/api/v1/nope').set(a.auth),
    ]) {
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': expect.stringMatching(/max-age=\d+/),
        'content-security-policy': expect.any(String),
        'cross-origin-opener-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('secrets never reach the logs', () => {
  it('when the run is over, then no log line holds a key, token, app secret, signing secret or access token', async () => {
    // A flow that touches every secret: inbound webhooks signed with the app secret, a signed outbound delivery.
    const secret = await gw().post('/api/v1/webhooks/settings/secret').set(a.auth).expect(200);
    registerSecret('webhook signing secret', secret.body.data.secret as string);
    const sent = await gw()
      .post('/api/v1/messages/send')
      .set(a.auth)
      .send({
        channel_account_id: a.channelAccountId,
        phone: randomPhone(),
        message_type: 'template',
        data: { name: 'hello_world' },
      })
      .expect(202);
    await waitFor(
      async () => {
        const res = await gw()
          .get(`/api/v1/messages/${String(sent.body.data.message_log_id)}`)
          .set(a.auth);
        return res.body.data?.status === 'read';
      },
      { timeoutMs: 15_000, what: 'read receipt through webhook-ingress' },
    );
    const ingress = loadIngressConfig(testEnv());
    await gw()
      .get(
        `/api/webhooks/channel?hub.mode=subscribe&hub.verify_token=${ingress.INGRESS_VERIFY_TOKEN}&hub.challenge=42`,
      )
      .expect(200);
    const secrets: Record<string, string> = {
      'API key of A': a.apiKey,
      'API key of B': b.apiKey,
      'admin token': ADMIN_TOKEN,
      'internal token': testEnv().INTERNAL_TOKEN!,
      'app secret': ingress.INGRESS_APP_SECRET,
      'verify token': ingress.INGRESS_VERIFY_TOKEN,
      'webhook signing secret': secret.body.data.secret as string,
      'access token': ACCESS_TOKEN,
    };
    const text = capturedLogText();
    // The capture works: lines of the services that log on this path are there, at the most verbose level.
    expect(full.gateway.logger.level).toBe('debug');
    const services = new Set([...text.matchAll(/"service":"([\w-]+)"/g)].map((m) => m[1]));
    expect([...services].sort()).toEqual(
      expect.arrayContaining(['campaign', 'messaging', 'webhook-dispatcher', 'webhook-ingress']),
    );
    const leaked = Object.entries(secrets)
      .filter(([, value]) => text.includes(value))
      .map(([name]) => name);
    expect(leaked).toEqual([]);
  });
});
