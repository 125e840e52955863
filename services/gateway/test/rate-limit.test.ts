import request from 'supertest';
import { createTenantWithKey, startGateway, ADMIN_TOKEN, type TestGateway } from './factories/gateway';
import { startFakeService } from './factories/fake-service';

const PLANS = JSON.stringify({
  default: { limit: 1000, window_seconds: 1 },
  tiny: { limit: 5, window_seconds: 30 },
  unlimited: { limit: null, window_seconds: 1 },
});

describe('gateway rate limits', () => {
  let a: TestGateway;
  let b: TestGateway;
  let service: Awaited<ReturnType<typeof startFakeService>>;

  beforeAll(async () => {
    service = await startFakeService();
    const env = { MESSAGING_URL: service.url, RATE_LIMIT_PLANS: PLANS };
    [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await service.close();
  });

  it('when a tenant calls, then every answer carries X-RateLimit-Limit, Remaining and Reset', async () => {
    const { apiKey } = await createTenantWithKey(a.url, 'tiny');
    const res = await request(a.url)
      .get('/api/v1/messages/1')
      .set('Authorization', `Bearer ${apiKey}`)
      .expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(30);
  });

  it('when the limit is spent across two gateway replicas, then the next call is 429 with Retry-After', async () => {
    const { apiKey } = await createTenantWithKey(a.url, 'tiny');
    const statuses: number[] = [];
    for (const gw of [a, b, a, b, a]) {
      statuses.push(
        (await request(gw.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`)).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await request(b.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`);
    expect(limited.status).toBe(429);
    expect(limited.body.success).toBe(false);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('when one tenant is limited, then another tenant is not', async () => {
    const limited = await createTenantWithKey(a.url, 'tiny');
    const other = await createTenantWithKey(a.url, 'tiny');
    for (let i = 0; i < 6; i += 1) {
      await request(a.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${limited.apiKey}`);
    }
    await request(a.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${other.apiKey}`).expect(200);
  });

  it('when an operator moves a tenant to the unlimited plan, then every replica lets it through at once', async () => {
    const { apiKey, tenantId } = await createTenantWithKey(a.url, 'tiny');
    for (let i = 0; i < 5; i += 1) {
      await request(b.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`).expect(200);
    }
    await request(a.url)
      .patch(`/admin/v1/tenants/${tenantId}`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ plan: 'unlimited' })
      .expect(200);
    // The first call after the change re-reads the key; the one after uses the new plan.
    await request(b.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`);
    const res = await request(b.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('when a key is revoked on one replica, then the other refuses it at once', async () => {
    const { apiKey, keyId } = await createTenantWithKey(a.url, 'unlimited');
    await request(b.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`).expect(200);
    await request(a.url)
      .delete(`/admin/v1/api-keys/${keyId}`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .expect(200);
    const res = await request(b.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_API_KEY');
  });
});
