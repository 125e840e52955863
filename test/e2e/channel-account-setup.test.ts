import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { uniqueSuffix } from '@bm/platform/testing';
import { ADMIN_TOKEN, startStack, type Stack } from '../support/stack';

/*
 * Connecting a channel account against another implementation of the upstream wire than the sandbox: one that
 * lists templates (the reference documents that call) but answers the webhook subscription as it pleases.
 */
describe('connecting a channel account when the upstream answers the webhook subscription differently', () => {
  let stack: Stack;
  let upstream: Server;
  /** What the fake answers `POST /{version}/{waba_id}/subscribed_apps` with, and what it saw. */
  let subscribeStatus = 404;
  const subscribeCalls: string[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'GET' && /\/message_templates/.test(req.url ?? '')) {
        json(200, {
          data: [
            { id: '1', name: 'hello_world', language: 'en_US', status: 'APPROVED', category: 'UTILITY' },
          ],
        });
      } else if (req.method === 'POST' && /\/subscribed_apps$/.test(req.url ?? '')) {
        subscribeCalls.push(req.url ?? '');
        if (subscribeStatus === 200) json(200, { success: true });
        else
          json(subscribeStatus, {
            error: { message: 'Unsupported post request', type: 'GraphMethodException', code: 100 },
          });
      } else {
        json(404, { error: { message: 'Unknown path', code: 100 } });
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as { port: number };
    stack = await startStack({ messagingEnv: { UPSTREAM_BASE_URL: `http://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await stack.stop();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  const tenant = async () =>
    (
      await request(stack.gatewayUrl)
        .post('/admin/v1/tenants')
        .set(admin)
        .send({ name: `t-${uniqueSuffix()}` })
        .expect(201)
    ).body.data.tenant_id as number;
  const connect = async (tenantId: number, ids: { phone_number_id: string; waba_id: string }) =>
    request(stack.gatewayUrl)
      .post(`/admin/v1/tenants/${tenantId}/channel-accounts`)
      .set(admin)
      .send({ ...ids, display_phone_number: '+1 555 000 2222', access_token: 'token', tier: 'TIER_1K' });

  it('when the subscription call is not offered (404), then the account is connected and says webhooks_subscribed false; a sync subscribes it', async () => {
    subscribeStatus = 404;
    const suffix = uniqueSuffix();
    const res = await connect(await tenant(), { phone_number_id: `pn-${suffix}`, waba_id: `waba-${suffix}` });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      phone_number_id: `pn-${suffix}`,
      waba_id: `waba-${suffix}`,
      templates_synced: 1,
      webhooks_subscribed: false,
    });
    expect(subscribeCalls.at(-1)).toContain(`/waba-${suffix}/subscribed_apps`);

    subscribeStatus = 200;
    const synced = await request(stack.gatewayUrl)
      .post(`/admin/v1/channel-accounts/${res.body.data.channel_account_id as string}/templates/sync`)
      .set(admin)
      .expect(200);
    expect(synced.body.data).toMatchObject({ templates: [expect.objectContaining({ name: 'hello_world' })] });
    expect(synced.body.data.webhooks_subscribed).toBe(true);
  });

  it('when the upstream refuses the token for the subscription (401), then 422 names access_token and nothing is kept', async () => {
    subscribeStatus = 401;
    const tenantId = await tenant();
    const ids = { phone_number_id: `${Date.now()}`, waba_id: `8${Date.now()}` };
    const res = await connect(tenantId, ids);
    expect(res.status).toBe(422);
    expect(res.body.error.details.errors[0].field).toBe('access_token');
    // The same number connects once the token is right: nothing of the refused attempt was stored.
    subscribeStatus = 200;
    const again = await connect(tenantId, ids);
    expect(again.status).toBe(201);
    expect(again.body.data.webhooks_subscribed).toBe(true);
  });
});
