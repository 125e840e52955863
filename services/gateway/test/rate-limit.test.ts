import request from 'supertest';
import { createTenantWithKey, startGateway, ADMIN_TOKEN, type TestGateway } from './factories/gateway';
import { startFakeService } from './factories/fake-service';

const PLANS = JSON.stringify({
  default: { limit: 1000, window_seconds: 1 },
  tiny: { limit: 5, window_seconds: 30 },
  unlimited: { limit: null, window_seconds: 1 },
});

// X-RateLimit-Limit and -Remaining of the unlimited plan (the largest 32-bit integer), as docs/api.md states them.
const UNLIMITED = '2147483647';

describe('gateway rate limits', () => {
  let a: TestGateway;
  let b: TestGateway;
  let service: Awaited<ReturnType<typeof startFakeService>>;

  beforeAll(async () => {
    service = await startFakeService((call) =>
      call.url.endsWith('/messages/404')
        ? { status: 404, body: { success: false, error: { code: 'MESSAGE_NOT_FOUND', message: 'no' } } }
        : { status: 200, body: { success: true, data: { ok: true } } },
    );
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

  it('when calls of two tenants arrive together on both replicas, then each call is counted once', async () => {
    const first = await createTenantWithKey(a.url, 'tiny');
    const second = await createTenantWithKey(a.url, 'tiny');
    // Sent at once, so that each replica counts several of them in the same Redis call.
    const calls = [a, b, a, b, a, b, a, b].map((gw) =>
      request(gw.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${first.apiKey}`),
    );
    const others = [a, b, a].map((gw) =>
      request(gw.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${second.apiKey}`),
    );
    const answers = await Promise.all(calls);
    const passed = answers.filter((r) => r.status === 200);
    expect(passed).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(3);
    // Every passed call was counted on its own: Remaining 4, 3, 2, 1, 0 in some order.
    expect(passed.map((r) => r.headers['x-ratelimit-remaining']).sort()).toEqual(['0', '1', '2', '3', '4']);
    const otherAnswers = await Promise.all(others);
    expect(otherAnswers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(otherAnswers.map((r) => r.headers['x-ratelimit-remaining']).sort()).toEqual(['2', '3', '4']);
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
    expect(res.headers['x-ratelimit-limit']).toBe(UNLIMITED);
  });

  it('when a tenant on the unlimited plan calls, then every authenticated answer states a budget it never spends', async () => {
    const { apiKey, tenantId } = await createTenantWithKey(a.url, 'unlimited');
    const auth = { Authorization: `Bearer ${apiKey}` };
    const answers = [
      await request(a.url).get('/api/v1/messages/1').set(auth),
      await request(b.url).get('/api/v1/messages/404').set(auth),
      await request(a.url).get('/api/v1/no-such-route').set(auth),
      await request(b.url).delete('/api/v1/messages/send').set(auth),
      await request(a.url)
        .get('/api/v1/messages/1')
        .set({ ...auth, 'X-TENANT-ID': String(tenantId + 1) }),
    ];
    expect(answers.map((r) => [r.status, (r.body as { error?: { code: string } }).error?.code])).toEqual([
      [200, undefined],
      [404, 'MESSAGE_NOT_FOUND'],
      [404, 'NOT_FOUND'],
      [405, 'METHOD_NOT_ALLOWED'],
      [403, 'TENANT_FORBIDDEN'],
    ]);
    for (const res of answers) {
      expect(res.headers['x-ratelimit-limit']).toBe(UNLIMITED);
      expect(res.headers['x-ratelimit-remaining']).toBe(UNLIMITED);
      // The unlimited plan's window (window_seconds 1).
      expect(res.headers['x-ratelimit-reset']).toBe('1');
    }
  });

  it("when a call is not authenticated, then 401 states the default plan's budget, uncounted", async () => {
    for (const authorization of [undefined, 'Bearer bm_live_unknown', 'Basic abc']) {
      const req = request(a.url).get('/api/v1/messages/1');
      const res = await (authorization === undefined ? req : req.set('Authorization', authorization));
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
      // The suite's default plan (RATE_LIMIT_PLANS above); nothing is counted, so Remaining is the whole budget.
      expect(res.headers['x-ratelimit-limit']).toBe(res.headers['x-ratelimit-remaining']);
      expect(Number(res.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
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
