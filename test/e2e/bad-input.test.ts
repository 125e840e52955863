import fc from 'fast-check';
import request from 'supertest';
import { FORWARDED_ADMIN_ROUTES, PUBLIC_ROUTES, UPSTREAM_WEBHOOK_ROUTES } from '@bm/contracts';
import { testEnv, waitFor } from '@bm/platform/testing';
import { loadIngressConfig } from '../../services/webhook-ingress/src/config';
import { badRequests, envelopeProblem, runPool, type Endpoint, type Fixtures } from '../support/bad-input';
import { startFullStack, type FullStack } from '../support/full-stack';
import { RawClient, sendRawBytes, type RawRequest } from '../support/raw-http';
import { ADMIN_TOKEN, createTenant, randomPhone } from '../support/stack';

/**
 * Property-based bad input against every public endpoint of the whole stack (gateway, messaging, campaign,
 * webhook-ingress, dispatcher in this process): wrong types, missing fields, huge strings, deep nesting, invalid
 * UTF-8, wrong content types and encodings, bogus ids, path tricks, odd and forged headers, bad signatures.
 * Every answer must be a documented envelope, never a 5xx. BAD_INPUT_CASES sets the total (default 10,000),
 * BAD_INPUT_SEED replays a run.
 */
const TOTAL = Number(process.env.BAD_INPUT_CASES ?? 10_000);
const SEED = Number(process.env.BAD_INPUT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 16;

const BODIES: Record<string, (fx: Fixtures) => Record<string, unknown>> = {
  sendMessage: (fx) => ({
    channel_account_id: fx.channelAccountId,
    phone: randomPhone(),
    message_type: 'template',
    data: { name: 'hello_world', language: 'en_US' },
  }),
  submitTemplate: (fx) => ({
    channel_account_id: fx.channelAccountId,
    name: 'fuzz_template',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['Ana']] } }],
  }),
  createCampaign: (fx) => ({
    channel_account_id: fx.channelAccountId,
    message_type: 'template',
    template_name: 'hello_world',
    recipients: [{ phone: randomPhone(), variables: { '1': 'x' } }],
  }),
  createFlow: (fx) => fuzzFlow(fx),
  updateFlow: (fx) => fuzzFlow(fx),
  receiveChannelWebhook: (fx) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: fx.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001111', phone_number_id: fx.phoneNumberId },
              contacts: [{ profile: { name: 'Fuzz' }, wa_id: '14155550100' }],
              messages: [
                {
                  from: '14155550100',
                  id: 'wamid.fuzz',
                  timestamp: '1749416383',
                  type: 'text',
                  text: { body: 'hi' },
                },
              ],
              statuses: [
                {
                  id: 'wamid.fuzzstatus',
                  status: 'delivered',
                  timestamp: '1750030073',
                  recipient_id: '14155550100',
                },
              ],
            },
          },
          {
            field: 'message_template_status_update',
            value: {
              event: 'APPROVED',
              message_template_id: 1,
              message_template_name: 'fuzz_template',
              message_template_language: 'en_US',
            },
          },
        ],
      },
    ],
  }),
  addOptOut: () => ({ phone: randomPhone() }),
  putWebhookSettings: () => ({ url: 'http://127.0.0.1:9/hook', events: ['message.status_updated'] }),
  adminCreateTenant: () => ({ name: 'fuzz', plan: 'default' }),
  adminUpdateTenant: () => ({ plan: 'default' }),
  adminCreateChannelAccount: () => ({
    phone_number_id: '1',
    waba_id: '2',
    display_phone_number: '+1 555 000 1111',
    access_token: 'sandbox-token',
    tier: 'TIER_1K',
  }),
};

function fuzzFlow(fx: Fixtures): Record<string, unknown> {
  return {
    channel_account_id: fx.channelAccountId,
    name: 'Fuzz flow',
    trigger: { type: 'keyword', keywords: ['fuzz'] },
    steps: [
      { id: 'hi', type: 'send_text', text: 'Hello {{name}}', next: 'done' },
      { id: 'done', type: 'end' },
    ],
  };
}

const GATEWAY_ADMIN_ROUTES = [
  { method: 'POST', path: '/admin/v1/tenants', operationId: 'adminCreateTenant' },
  { method: 'GET', path: '/admin/v1/tenants/:tenantId', operationId: 'adminGetTenant' },
  { method: 'PATCH', path: '/admin/v1/tenants/:tenantId', operationId: 'adminUpdateTenant' },
  { method: 'POST', path: '/admin/v1/tenants/:tenantId/api-keys', operationId: 'adminIssueApiKey' },
  { method: 'DELETE', path: '/admin/v1/api-keys/:keyId', operationId: 'adminRevokeApiKey' },
];

let full: FullStack;
let fx: Fixtures;
let client: RawClient;
const tally = { cases: 0, ms: 0, byStatus: new Map<number, number>() };

const endpoints = (fixtures: () => Fixtures): Array<[string, Endpoint]> =>
  [
    ...PUBLIC_ROUTES.map((r) => ({ ...r, kind: 'tenant' as const })),
    ...UPSTREAM_WEBHOOK_ROUTES.map((r) => ({ ...r, kind: 'upstream' as const })),
    ...[...GATEWAY_ADMIN_ROUTES, ...FORWARDED_ADMIN_ROUTES].map((r) => ({ ...r, kind: 'admin' as const })),
  ].map((r) => {
    const body = BODIES[r.operationId];
    const endpoint: Endpoint = {
      method: r.method,
      path: r.path,
      kind: r.kind,
      valid: body && (() => body(fixtures())),
    };
    return [`${r.method} ${r.path}`, endpoint];
  });
const ENDPOINTS = endpoints(() => fx);
const PER_ENDPOINT = Math.ceil(TOTAL / ENDPOINTS.length);

beforeAll(async () => {
  full = await startFullStack();
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  const t = await createTenant(full.stack);
  const other = await createTenant(full.stack);
  const revoked = await request(full.gatewayUrl)
    .post(`/admin/v1/tenants/${t.tenantId}/api-keys`)
    .set(admin)
    .expect(201);
  await request(full.gatewayUrl)
    .delete(`/admin/v1/api-keys/${revoked.body.data.key_id as string}`)
    .set(admin)
    .expect(200);
  const message = await request(full.gatewayUrl)
    .post('/api/v1/messages/send')
    .set(t.auth)
    .send({
      channel_account_id: t.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name: 'hello_world' },
    })
    .expect(202);
  const campaign = await request(full.gatewayUrl)
    .post('/api/v1/campaigns')
    .set(t.auth)
    .send(BODIES.createCampaign({ channelAccountId: t.channelAccountId } as Fixtures))
    .expect(202);
  const flow = await request(full.gatewayUrl)
    .post('/api/v1/flows')
    .set(t.auth)
    .send(fuzzFlow({ channelAccountId: t.channelAccountId } as Fixtures))
    .expect(201);
  fx = {
    auth: t.auth.Authorization,
    otherTenantAuth: other.auth.Authorization,
    revokedAuth: `Bearer ${revoked.body.data.api_key as string}`,
    adminAuth: admin.Authorization,
    tenantId: t.tenantId,
    channelAccountId: t.channelAccountId,
    phoneNumberId: t.phoneNumberId,
    wabaId: t.wabaId,
    appSecret: loadIngressConfig(testEnv()).INGRESS_APP_SECRET,
    ids: {
      id: [
        String(message.body.data.message_log_id),
        campaign.body.data.campaign_id as string,
        flow.body.data.flow_id as string,
      ],
      phone: [randomPhone()],
      tenantId: [String(t.tenantId)],
      channelAccountId: [t.channelAccountId],
      keyId: [revoked.body.data.key_id as string],
    },
  };
  client = new RawClient(full.gatewayUrl, CONCURRENCY);
}, 60_000);

afterAll(async () => {
  client.close();
  const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  process.stdout.write(
    `bad input: ${tally.cases} cases in ${(tally.ms / 1000).toFixed(1)} s (seed ${SEED}); statuses ${statuses.join(' ')}\n`,
  );
  await full.stop();
});

describe('bad input on every public endpoint', () => {
  it.each(ENDPOINTS.map(([name], i) => [name, i] as const))(
    'when %s gets generated bad requests, then every answer is a documented envelope and none is a 5xx',
    async (_name, index) => {
      const [, endpoint] = ENDPOINTS[index];
      const cases = fc.sample(badRequests(endpoint, fx), { numRuns: PER_ENDPOINT, seed: SEED + index });
      const problems: string[] = [];
      const started = Date.now();
      await runPool(cases, CONCURRENCY, async (req: RawRequest) => {
        const res = await client.send(req);
        tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
        const problem = envelopeProblem(req, res);
        if (problem !== undefined) {
          const body = res.body.toString('utf8').slice(0, 200);
          problems.push(
            `${problem}: ${req.method} ${req.path.slice(0, 200)} ${JSON.stringify(req.headers)} -> ${body}`,
          );
        }
      });
      tally.cases += cases.length;
      tally.ms += Date.now() - started;
      expect(problems.slice(0, 5)).toEqual([]);
    },
    60_000,
  );

  it('when a body is over its limit on any endpoint, then 413 PAYLOAD_TOO_LARGE in the envelope', async () => {
    const over = (bytes: number) => Buffer.from(`{"x":"${'x'.repeat(bytes)}"}`);
    const bodyRoutes = ENDPOINTS.filter(([, e]) => e.valid).map(([, e]) => e);
    bodyRoutes.push({ method: 'POST', path: '/api/webhooks/channel', kind: 'upstream' });
    for (const e of bodyRoutes) {
      const auth = { tenant: fx.auth, admin: fx.adminAuth, upstream: 'none' }[e.kind];
      const req: RawRequest = {
        method: e.method,
        path: e.path.replace(/:\w+/g, (p) => fx.ids[p.slice(1)]?.[0] ?? '1'),
        headers: { authorization: auth, 'content-type': 'application/json' },
        // The campaign service admits 50,000 recipients with variables (32 MB); every other limit is under 3.1 MB.
        body: over(/^\/api\/v1\/(campaigns|opt-outs)/.test(e.path) ? 33 * 1024 * 1024 : 3.1 * 1024 * 1024),
      };
      const res = await client.send(req);
      expect([e.path, res.status, envelopeProblem(req, res)]).toEqual([e.path, 413, undefined]);
    }
  });

  it('when a request smuggles headers or breaks HTTP framing, then it is refused without a 5xx', async () => {
    // CRLF in a header value starts a new header: the forged internal credential and tenant are dropped.
    const smuggled = await sendRawBytes(
      full.gatewayUrl,
      `GET /api/v1/messages?per_page=1 HTTP/1.1\r\nHost: x\r\nAuthorization: ${fx.otherTenantAuth}\r\n` +
        `X-Note: a\r\nx-bm-tenant-id: ${fx.tenantId}\r\nx-internal-token: forged\r\nConnection: close\r\n\r\n`,
    );
    const [head, body] = smuggled.toString('utf8').split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    // The other tenant has sent nothing: the first tenant's message is not visible to it.
    expect((JSON.parse(body) as { data: { messages: unknown[] } }).data.messages).toEqual([]);
    // Node's parser refuses these before any application code, with a bare 4xx (no envelope is possible there).
    for (const bytes of [
      'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\rb\r\n\r\n',
      `GET /api/v1/messages/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'POST /api/v1/messages/send HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]) {
      expect((await sendRawBytes(full.gatewayUrl, bytes)).toString('latin1')).toMatch(/^HTTP\/1\.1 4\d\d /);
    }
  });

  it('when the generated cases are done, then the gateway and every service are still healthy', async () => {
    expect(tally.cases).toBeGreaterThanOrEqual(TOTAL);
    // Every signed body the ingress stored, NUL and unpaired surrogates included, was split: none is left
    // pending (retried for ever) and none was given up.
    const admin = { Authorization: fx.adminAuth };
    const count = async (outcome: string) =>
      (
        await request(full.gatewayUrl)
          .get(`/admin/v1/inbound-events?outcome=${outcome}`)
          .set(admin)
          .expect(200)
      ).body.data.pagination.total as number;
    await waitFor(async () => (await count('pending')) === 0, {
      what: 'every inbound event split',
      timeoutMs: 30_000,
    });
    expect(await count('failed')).toBe(0);
    await request(full.gatewayUrl).get('/api/health').expect(200);
    for (const url of [
      full.stack.messagingUrl,
      full.stack.campaignUrl!,
      full.ingress.url,
      full.dispatcher.url,
    ]) {
      await request(url).get('/health/ready').expect(200);
    }
  });
});
