import request from 'supertest';
import { Client } from 'pg';
import { startGateway, useGateway, ADMIN_TOKEN } from './factories/gateway';
import { startFakeService } from './factories/fake-service';

describe('operator API /admin/v1', () => {
  const gw = useGateway({}, (call) => ({
    status: 201,
    body: {
      success: true,
      data: { channel_account_id: '01JB0000000000000000000000', tenant: call.headers['x-bm-tenant-id'] },
    },
  }));
  const admin = (r: request.Test) => r.set('Authorization', `Bearer ${ADMIN_TOKEN}`);

  it('when the admin token is missing or wrong, then 401 INVALID_API_KEY', async () => {
    for (const header of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${ADMIN_TOKEN}x`]) {
      const req = request(gw.url).post('/admin/v1/tenants').send({ name: 'x' });
      if (header) req.set('Authorization', header);
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    }
  });

  it('when a tenant is created, then it has an integer id and the default plan', async () => {
    const res = await admin(request(gw.url).post('/admin/v1/tenants')).send({ name: 'Acme' }).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: { tenant_id: expect.any(Number), name: 'Acme', plan: 'default', created_at: expect.any(String) },
    });
    expect(Number.isInteger(res.body.data.tenant_id)).toBe(true);
  });

  it('when the body is bad or names an unknown plan, then 422 VALIDATION_ERROR listing the fields', async () => {
    const res = await admin(request(gw.url).post('/admin/v1/tenants')).send({ plan: 'gold' }).expect(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect((res.body.error.details.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(['name']);
    const plan = await admin(request(gw.url).post('/admin/v1/tenants'))
      .send({ name: 'x', plan: 'gold' })
      .expect(422);
    expect(plan.body.error.details.errors[0].field).toBe('plan');
  });

  it('when a key is issued, then it is shown once and only its hash is stored', async () => {
    const tenant = await admin(request(gw.url).post('/admin/v1/tenants'))
      .send({ name: 'Hash Co' })
      .expect(201);
    const key = await admin(
      request(gw.url).post(`/admin/v1/tenants/${tenant.body.data.tenant_id}/api-keys`),
    ).expect(201);
    const { key_id: keyId, api_key: apiKey } = key.body.data as { key_id: string; api_key: string };
    expect(apiKey.startsWith(`bm_live_${keyId}`)).toBe(true);
    const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    try {
      const rows = await db.query('SELECT * FROM gateway.api_keys WHERE id = $1', [keyId]);
      const stored = JSON.stringify(rows.rows[0]);
      expect(stored).not.toContain(apiKey.slice(`bm_live_${keyId}`.length));
      expect((rows.rows[0] as { secret_hash: Buffer }).secret_hash).toHaveLength(32);
    } finally {
      await db.end();
    }
  });

  it('when the tenant or key is unknown, then 404 in the envelope', async () => {
    const tenant = await admin(request(gw.url).post('/admin/v1/tenants/999999/api-keys')).expect(404);
    expect(tenant.body.error.code).toBe('TENANT_NOT_FOUND');
    const bogus = await admin(request(gw.url).post('/admin/v1/tenants/abc/api-keys')).expect(404);
    expect(bogus.body.error.code).toBe('TENANT_NOT_FOUND');
    const key = await admin(request(gw.url).delete('/admin/v1/api-keys/01JB0000000000000000000000')).expect(
      404,
    );
    expect(key.body.error.code).toBe('API_KEY_NOT_FOUND');
  });

  it('when the tenant id is past the integer column or its name holds NUL, then 404 or 422, never a 500', async () => {
    for (const path of ['/admin/v1/tenants/999999999999', '/admin/v1/tenants/2147483648/api-keys']) {
      const method = path.endsWith('api-keys') ? 'post' : 'get';
      const res = await admin(request(gw.url)[method](path)).expect(404);
      expect(res.body.error.code).toBe('TENANT_NOT_FOUND');
    }
    const nul = await admin(request(gw.url).post('/admin/v1/tenants')).send({ name: 'a\u0000b' }).expect(422);
    expect(nul.body.error.details.errors).toEqual([
      { field: 'name', message: 'name must not contain NUL characters' },
    ]);
  });

  it('when a channel account is connected, then the call goes to the messaging service with the tenant', async () => {
    const tenant = await admin(request(gw.url).post('/admin/v1/tenants'))
      .send({ name: 'Channel Co' })
      .expect(201);
    const tenantId = tenant.body.data.tenant_id as number;
    const body = {
      phone_number_id: '1065',
      waba_id: '2001',
      display_phone_number: '15550001',
      access_token: 'tok',
      tier: 'TIER_1K',
    };
    const res = await admin(request(gw.url).post(`/admin/v1/tenants/${tenantId}/channel-accounts`))
      .send(body)
      .expect(201);
    expect(res.body.data.tenant).toBe(String(tenantId));
    const call = gw.messaging.calls.at(-1)!;
    expect(call.url).toBe(`/admin/v1/tenants/${tenantId}/channel-accounts`);
    expect(JSON.parse(call.body)).toEqual(body);
    const missing = await admin(request(gw.url).post('/admin/v1/tenants/999999/channel-accounts')).send(body);
    expect(missing.status).toBe(404);
  });

  it('when the messaging service is draining and answers 503 without Retry-After, then the gateway adds it', async () => {
    const draining = await startFakeService(() => ({
      status: 503,
      body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'draining' } },
    }));
    const gateway = await startGateway({ MESSAGING_URL: draining.url });
    try {
      const res = await admin(
        request(gateway.url).post('/admin/v1/channel-accounts/01JB0000000000000000000000/templates/sync'),
      );
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await gateway.stop();
      await draining.close();
    }
  });

  it('when the messaging service is down, then 503 SERVICE_UNAVAILABLE in the envelope, with Retry-After', async () => {
    const down = await startGateway({ MESSAGING_URL: 'http://127.0.0.1:1' });
    try {
      const res = await admin(
        request(down.url).post('/admin/v1/channel-accounts/01JB0000000000000000000000/templates/sync'),
      );
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
      });
    } finally {
      await down.stop();
    }
  });
});
