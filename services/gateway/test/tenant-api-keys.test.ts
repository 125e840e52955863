import request from 'supertest';
import { createTenantWithKey, useGateway } from './factories/gateway';
import { invite, newEmail, sameOrigin, signedInUser } from './factories/dashboard-users';

interface KeySummary {
  key_id: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
const keysOf = (res: request.Response) => res.body.data.api_keys as KeySummary[];

describe('tenant API keys /api/v1/api-keys', () => {
  const gw = useGateway();

  it('when a tenant issues, lists and revokes a key, then the new key works until revoked', async () => {
    const { apiKey } = await createTenantWithKey(gw.url);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const issued = await request(gw.url).post('/api/v1/api-keys').set(auth).expect(201);
    const fresh = { Authorization: `Bearer ${issued.body.data.api_key}` };
    await request(gw.url).get('/api/v1/messages/1').set(fresh).expect(200);

    const list = await request(gw.url).get('/api/v1/api-keys').set(auth).expect(200);
    const ids = keysOf(list).map((k) => k.key_id);
    expect(ids[0]).toBe(issued.body.data.key_id);
    expect(ids).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain('bm_live_');
    const used = keysOf(list).find((k) => k.key_id === issued.body.data.key_id);
    expect(used?.last_used_at).toEqual(expect.any(String));

    await request(gw.url).delete(`/api/v1/api-keys/${issued.body.data.key_id}`).set(auth).expect(200);
    await request(gw.url).get('/api/v1/messages/1').set(fresh).expect(401);
    const after = await request(gw.url).get('/api/v1/api-keys').set(auth).expect(200);
    expect(after.body.data.api_keys[0].revoked_at).not.toBeNull();
  });

  it("when a tenant names another tenant's key, then 404 and the key keeps working", async () => {
    const a = await createTenantWithKey(gw.url);
    const b = await createTenantWithKey(gw.url);
    const res = await request(gw.url)
      .delete(`/api/v1/api-keys/${b.keyId}`)
      .set('Authorization', `Bearer ${a.apiKey}`)
      .expect(404);
    expect(res.body.error.code).toBe('API_KEY_NOT_FOUND');
    await request(gw.url).get('/api/v1/messages/1').set('Authorization', `Bearer ${b.apiKey}`).expect(200);
    const list = await request(gw.url).get('/api/v1/api-keys').set('Authorization', `Bearer ${a.apiKey}`);
    expect(keysOf(list).map((k) => k.key_id)).not.toContain(b.keyId);
  });

  it("when a dashboard session manages keys, then it needs its CSRF token and sees only its tenant's", async () => {
    const user = await signedInUser(gw.url);
    const other = await signedInUser(gw.url);
    const denied = await request(gw.url).post('/api/v1/api-keys').set('Cookie', user.cookie).expect(403);
    expect(denied.body.error.code).toBe('CSRF_FAILED');
    const issued = await request(gw.url)
      .post('/api/v1/api-keys')
      .set('Cookie', user.cookie)
      .set('X-CSRF-Token', user.csrf)
      .set(sameOrigin(gw.url))
      .expect(201);
    expect(issued.body.data.tenant_id).toBe(user.tenantId);
    const otherList = await request(gw.url).get('/api/v1/api-keys').set('Cookie', other.cookie).expect(200);
    expect(keysOf(otherList).map((k) => k.key_id)).not.toContain(issued.body.data.key_id);
    await request(gw.url)
      .delete(`/api/v1/api-keys/${issued.body.data.key_id}`)
      .set('Cookie', other.cookie)
      .set('X-CSRF-Token', other.csrf)
      .set(sameOrigin(gw.url))
      .expect(404);
  });

  it("when a tenant lists its team, then it sees its own users, invited or active, and no other tenant's", async () => {
    const user = await signedInUser(gw.url);
    const other = await signedInUser(gw.url);
    const colleague = newEmail();
    const invited = await invite(gw.url, user.tenantId, colleague).expect(201);
    const list = await request(gw.url).get('/api/v1/users').set('Cookie', user.cookie).expect(200);
    expect(list.body.data.users).toEqual([
      {
        user_id: expect.any(String),
        email: user.email,
        status: 'active',
        role: 'owner',
        created_at: expect.any(String),
      },
      {
        user_id: invited.body.data.user_id,
        email: colleague,
        status: 'invited',
        role: 'owner',
        created_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(list.body)).not.toMatch(/password|hash/);
    const byKey = await request(gw.url).get('/api/v1/users').set('Authorization', `Bearer ${other.apiKey}`);
    const users = byKey.body.data.users as Array<{ email: string }>;
    expect(users.map((u) => u.email)).toEqual([other.email]);
  });
});
