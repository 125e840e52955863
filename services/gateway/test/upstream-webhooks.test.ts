import request from 'supertest';
import { startGateway, type TestGateway } from './factories/gateway';
import { startFakeService } from './factories/fake-service';

describe('/api/webhooks/channel through the gateway', () => {
  let gw: TestGateway;
  let ingress: Awaited<ReturnType<typeof startFakeService>>;

  beforeAll(async () => {
    ingress = await startFakeService(() => ({
      status: 200,
      body: { success: true, data: { received: true } },
    }));
    gw = await startGateway({ INGRESS_URL: ingress.url });
  });
  afterAll(async () => {
    await gw.stop();
    await ingress.close();
  });

  it('when the upstream posts, then no API key is asked and the bytes and signature reach ingress untouched', async () => {
    const raw =
      '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"value":{"text":"caf\\u00e9 😀 \\"q\\""}}]}]}';
    await request(gw.url)
      .post('/api/webhooks/channel')
      .set('Content-Type', 'application/json')
      .set('X-Hub-Signature-256', 'sha256=abc')
      .send(raw)
      .expect(200);
    const call = ingress.calls.at(-1)!;
    expect(call.body).toBe(raw);
    expect(call.headers['x-hub-signature-256']).toBe('sha256=abc');
  });

  it('when the upstream verifies, then the query reaches ingress', async () => {
    await request(gw.url)
      .get('/api/webhooks/channel?hub.mode=subscribe&hub.verify_token=t&hub.challenge=42')
      .expect(200);
    expect(ingress.calls.at(-1)!.url).toBe(
      '/api/webhooks/channel?hub.mode=subscribe&hub.verify_token=t&hub.challenge=42',
    );
  });
});
