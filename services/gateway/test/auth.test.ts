import request from 'supertest';
import { createTenantWithKey, useGateway, ADMIN_TOKEN } from './factories/gateway';

describe('gateway authentication and tenant context', () => {
  const gw = useGateway({}, (call) => ({
    status: 200,
    body: { success: true, data: { tenant: call.headers['x-bm-tenant-id'] } },
  }));

  const expectInvalidKey = (res: request.Response) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'INVALID_API_KEY', message: expect.any(String) },
    });
  };

  it.each([
    ['no Authorization header', undefined],
    ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
    ['a malformed key', 'Bearer not-a-key'],
    ['a well-formed unknown key', `Bearer bm_live_01JAAAAAAAAAAAAAAAAAAAAAAA${'x'.repeat(43)}`],
  ])('when the request carries %s, then 401 INVALID_API_KEY', async (_what, header) => {
    const req = request(gw.url).get('/api/v1/messages/1');
    if (header !== undefined) req.set('Authorization', header);
    expectInvalidKey(await req);
  });

  it('when the path is unknown and unauthenticated, then authentication still answers first', async () => {
    expectInvalidKey(await request(gw.url).get('/api/v1/no-such-thing'));
  });

  it('when a key is revoked, then it stops working at once', async () => {
    const { apiKey, keyId } = await createTenantWithKey(gw.url);
    await request(gw.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`).expect(200);
    await request(gw.url)
      .delete(`/admin/v1/api-keys/${keyId}`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .expect(200);
    expectInvalidKey(
      await request(gw.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${apiKey}`),
    );
  });

  it('when a key right of shape has a wrong secret, then 401', async () => {
    const { apiKey } = await createTenantWithKey(gw.url);
    const tampered = apiKey.slice(0, -1) + (apiKey.endsWith('A') ? 'B' : 'A');
    expectInvalidKey(
      await request(gw.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${tampered}`),
    );
  });

  it('when a client forges the internal tenant header, then the service sees only the key tenant', async () => {
    const a = await createTenantWithKey(gw.url);
    const b = await createTenantWithKey(gw.url);
    const res = await request(gw.url)
      .get('/api/v1/messages/1')
      .set('Authorization', `Bearer ${a.apiKey}`)
      .set('X-Bm-Tenant-Id', String(b.tenantId))
      .set('X-Internal-Token', 'guess')
      .expect(200);
    expect(res.body.data.tenant).toBe(String(a.tenantId));
    const call = gw.messaging.calls.at(-1)!;
    expect(call.headers.authorization).toBeUndefined();
    expect(call.headers['x-internal-token']).toBe('test-internal-token-0123456789');
  });

  it('when X-TENANT-ID names the key tenant, then the request passes; another tenant, then 403', async () => {
    const a = await createTenantWithKey(gw.url);
    const b = await createTenantWithKey(gw.url);
    await request(gw.url)
      .get('/api/v1/messages/1')
      .set('Authorization', `Bearer ${a.apiKey}`)
      .set('X-TENANT-ID', String(a.tenantId))
      .expect(200);
    for (const other of [String(b.tenantId), 'abc', '']) {
      const res = await request(gw.url)
        .get('/api/v1/messages/1')
        .set('Authorization', `Bearer ${a.apiKey}`)
        .set('X-TENANT-ID', other);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('TENANT_FORBIDDEN');
    }
  });

  it('when an authenticated path is unknown or the method is wrong, then 404 NOT_FOUND or 405 METHOD_NOT_ALLOWED', async () => {
    const { apiKey } = await createTenantWithKey(gw.url);
    const notFound = await request(gw.url).get('/api/v1/nope').set('Authorization', `Bearer ${apiKey}`);
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe('NOT_FOUND');
    const wrongMethod = await request(gw.url)
      .get('/api/v1/messages/send')
      .set('Authorization', `Bearer ${apiKey}`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.allow).toBe('POST');
    expect(wrongMethod.headers['x-ratelimit-limit']).toBeDefined();
  });
});
