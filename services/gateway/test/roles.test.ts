import request from 'supertest';
import {
  DOCUMENTED_ROUTES,
  fail,
  OPERATION_ROLES,
  OPERATIONS,
  ROLES,
  minimumRoleFor,
  roleAllows,
  type Role,
} from '@bm/contracts';
import { waitFor } from '@bm/platform/testing';
import { useFixture } from '../../../test/support/use-fixture';
import { startFakeService } from './factories/fake-service';
import { newEmail, setPassword, signInRequest, tokenOf } from './factories/dashboard-users';
import { createTenantWithKey, startGateway } from './factories/gateway';
import { sessionAs, type RoleSession } from './factories/sessions';
import { SessionStore } from '../src/data-access/session.store';

// Every /api/v1 operation of the OpenAPI document, with its method and path.
const API_OPERATIONS = DOCUMENTED_ROUTES.filter((r) => r.path.startsWith('/api/v1/'));
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SOME_ULID = '01JB0000000000000000000000';

// Cheap requests: ids no resource has, and a body every validator refuses after the role check (422).
const pathOf = (path: string) => path.replace(/:phone\b/, '14155550100').replace(/:[A-Za-z]+/g, SOME_ULID);

/** Status and error code of one request, with the stream of the inbox closed as soon as it opens. */
async function call(url: string, method: string, path: string, headers: Record<string, string>) {
  const res = await fetch(`${url}${pathOf(path)}`, {
    method,
    headers: { ...headers, ...(STATE_CHANGING.has(method) ? { 'Content-Type': 'application/json' } : {}) },
    body: STATE_CHANGING.has(method) && method !== 'DELETE' ? '{"not_a_field":true}' : undefined,
  });
  if (!(res.headers.get('content-type') ?? '').includes('json')) {
    await res.body?.cancel();
    return { status: res.status, code: undefined };
  }
  const body = (await res.json()) as { error?: { code?: string } };
  return { status: res.status, code: body.error?.code };
}

// One gateway for the file.
const gw = useFixture(
  async () => {
    // Every service stands in with an answer each operation declares: the role check is what is tested.
    const service = await startFakeService(() => ({
      status: 503,
      body: fail('SERVICE_UNAVAILABLE', 'stand-in'),
    }));
    const gateway = await startGateway({
      MESSAGING_URL: service.url,
      CAMPAIGN_URL: service.url,
      DISPATCHER_URL: service.url,
      INGRESS_URL: service.url,
    });
    return { ...gateway, service };
  },
  async (f) => {
    await f.stop();
    await f.service.close();
  },
);

describe('roles: the permission table, enforced by the gateway for every /api/v1 operation', () => {
  it('when the document lists an /api/v1 operation, then the table names its lowest role', () => {
    const ids = API_OPERATIONS.map((r) => r.operationId);
    expect(ids.filter((id) => !(id in OPERATION_ROLES))).toEqual([]);
    expect(Object.keys(OPERATION_ROLES).filter((id) => !ids.includes(id))).toEqual([]);
    expect(ids.filter((id) => OPERATIONS[id] === undefined)).toEqual([]);
    // A viewer reads everything but the audit log, and changes nothing.
    for (const r of API_OPERATIONS) {
      const viewer = roleAllows('viewer', minimumRoleFor(r.operationId));
      expect([r.operationId, viewer]).toEqual([
        r.operationId,
        r.method === 'GET' && r.operationId !== 'listAuditLog',
      ]);
    }
  });

  // Generated from the document: each operation asked by a session of each role.
  it.each(ROLES)(
    'when a session of role %s calls each operation, then 403 FORBIDDEN_FOR_ROLE exactly where the table forbids it, before anything is forwarded',
    async (role: Role) => {
      const session: RoleSession = await sessionAs(gw, role);
      const wrong: string[] = [];
      for (const route of API_OPERATIONS) {
        const allowed = roleAllows(role, minimumRoleFor(route.operationId));
        const forwardedBefore = gw.service.calls.length;
        const { status, code } = await call(gw.url, route.method, route.path, session.headers);
        const forwarded = gw.service.calls.length > forwardedBefore;
        if (allowed && status === 403) wrong.push(`${route.operationId}: allowed, answered 403 ${code}`);
        if (!allowed && (status !== 403 || code !== 'FORBIDDEN_FOR_ROLE' || forwarded)) {
          wrong.push(
            `${route.operationId}: forbidden, answered ${status} ${code}${forwarded ? ', forwarded' : ''}`,
          );
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it("when a key is issued with a role, then it has that role's rights and the list shows its name and role", async () => {
    const { apiKey } = await createTenantWithKey(gw.url);
    const full = { Authorization: `Bearer ${apiKey}` };
    const issued = await request(gw.url)
      .post('/api/v1/api-keys')
      .set(full)
      .send({ name: 'reporting', role: 'viewer' })
      .expect(201);
    expect(issued.body.data).toMatchObject({ name: 'reporting', role: 'viewer' });
    const viewer = { Authorization: `Bearer ${issued.body.data.api_key}` };
    await request(gw.url).get('/api/v1/messages').set(viewer).expect(503);
    const denied = await request(gw.url)
      .post('/api/v1/messages/send')
      .set(viewer)
      .send({ not_a_field: true })
      .expect(403);
    expect(denied.body.error).toMatchObject({
      code: 'FORBIDDEN_FOR_ROLE',
      message: 'Your role may not do this',
    });
    // The key without a role keeps full access, and a bodiless issue still works as before.
    await request(gw.url).post('/api/v1/messages/send').set(full).send({}).expect(503);
    const plain = await request(gw.url).post('/api/v1/api-keys').set(full).expect(201);
    expect(plain.body.data).toMatchObject({ name: null, role: null });
    const list = await request(gw.url).get('/api/v1/api-keys').set(full).expect(200);
    expect((list.body.data.api_keys as unknown[]).slice(0, 3)).toEqual([
      expect.objectContaining({ key_id: plain.body.data.key_id, name: null, role: null }),
      expect.objectContaining({ key_id: issued.body.data.key_id, name: 'reporting', role: 'viewer' }),
      expect.objectContaining({ name: null, role: null }),
    ]);
  });

  it("when a session issues a key, then it gets the session's role unless a lower one is asked, never a higher one", async () => {
    const admin = await sessionAs(gw, 'admin');
    const own = await request(gw.url).post('/api/v1/api-keys').set(admin.headers).send({}).expect(201);
    expect(own.body.data.role).toBe('admin');
    const lower = await request(gw.url)
      .post('/api/v1/api-keys')
      .set(admin.headers)
      .send({ role: 'agent' })
      .expect(201);
    expect(lower.body.data.role).toBe('agent');
    const higher = await request(gw.url)
      .post('/api/v1/api-keys')
      .set(admin.headers)
      .send({ role: 'owner' })
      .expect(403);
    expect(higher.body.error.code).toBe('FORBIDDEN_FOR_ROLE');
    const owner = await sessionAs(gw, 'owner');
    const full = await request(gw.url).post('/api/v1/api-keys').set(owner.headers).expect(201);
    expect(full.body.data.role).toBeNull();
  });

  it("when a user's role changes, then their very next request has the new role", async () => {
    const agent = await sessionAs(gw, 'agent');
    await request(gw.url).post('/api/v1/messages/send').set(agent.headers).send({}).expect(503);
    await gw.gateway.dataSource.query(`UPDATE gateway.dashboard_users SET role = 'viewer' WHERE id = $1`, [
      agent.userId,
    ]);
    const res = await request(gw.url).post('/api/v1/messages/send').set(agent.headers).send({}).expect(403);
    expect(res.body.error.code).toBe('FORBIDDEN_FOR_ROLE');
    const session = await request(gw.url).get('/api/auth/session').set(agent.headers).expect(200);
    expect(session.body.data.user.role).toBe('viewer');
  });
});

describe('team management and the audit log', () => {
  const inviteAs = (by: RoleSession, body: object) =>
    request(gw.url).post('/api/v1/users').set(by.headers).send(body);

  it('when an owner invites a colleague with a role, then the link signs them in with that role', async () => {
    const owner = await sessionAs(gw, 'owner');
    const email = newEmail();
    const invited = await inviteAs(owner, { email, role: 'admin' }).expect(201);
    expect(invited.body.data).toEqual({
      user_id: expect.any(String),
      email,
      role: 'admin',
      invite_url: expect.stringMatching(/\/dashboard\/set-password#token=/),
      invite_expires_at: expect.any(String),
    });
    const set = await setPassword(gw.url, tokenOf(invited.body.data.invite_url as string)).expect(200);
    expect(set.body.data.role).toBe('admin');
    const signedIn = await signInRequest(gw.url, email).expect(200);
    expect(signedIn.body.data.user).toMatchObject({ email, role: 'admin', tenant_id: owner.tenantId });
    const team = await request(gw.url).get('/api/v1/users').set(owner.headers).expect(200);
    expect(team.body.data.users).toEqual([
      expect.objectContaining({ user_id: owner.userId, role: 'owner', status: 'active' }),
      expect.objectContaining({ user_id: invited.body.data.user_id, role: 'admin', status: 'active' }),
    ]);
  });

  it('when an admin invites, then any role but owner, a pending invite again, never an active account, and no role changes', async () => {
    const admin = await sessionAs(gw, 'admin');
    const agent = await inviteAs(admin, { email: newEmail(), role: 'agent' }).expect(201);
    expect(agent.body.data.role).toBe('agent');
    const owner = await inviteAs(admin, { email: newEmail(), role: 'owner' }).expect(403);
    expect(owner.body.error.code).toBe('FORBIDDEN_FOR_ROLE');
    // An invite can never reset a colleague's password; one not yet accepted is sent again, with the new role.
    const again = await inviteAs(admin, { email: admin.email, role: 'viewer' }).expect(409);
    expect(again.body.error.code).toBe('CONFLICT');
    const resent = await inviteAs(admin, { email: agent.body.data.email, role: 'viewer' }).expect(201);
    expect(resent.body.data).toMatchObject({ user_id: agent.body.data.user_id, role: 'viewer' });
    expect(resent.body.data.invite_url).not.toBe(agent.body.data.invite_url);
    const patch = await request(gw.url)
      .patch(`/api/v1/users/${agent.body.data.user_id}`)
      .set(admin.headers)
      .send({ role: 'admin' })
      .expect(403);
    expect(patch.body.error.code).toBe('FORBIDDEN_FOR_ROLE');
  });

  it("when the last owner would be demoted or removed, then 409 LAST_OWNER; another tenant's user is 404", async () => {
    const owner = await sessionAs(gw, 'owner');
    const other = await sessionAs(gw, 'owner');
    const demote = await request(gw.url)
      .patch(`/api/v1/users/${owner.userId}`)
      .set(owner.headers)
      .send({ role: 'admin' })
      .expect(409);
    expect(demote.body.error.code).toBe('LAST_OWNER');
    const remove = await request(gw.url)
      .delete(`/api/v1/users/${owner.userId}`)
      .set(owner.headers)
      .expect(409);
    expect(remove.body.error.code).toBe('LAST_OWNER');
    await request(gw.url)
      .patch(`/api/v1/users/${other.userId}`)
      .set(owner.headers)
      .send({ role: 'viewer' })
      .expect(404);
    await request(gw.url).delete(`/api/v1/users/${other.userId}`).set(owner.headers).expect(404);
    // With a second owner, the first may step down.
    const second = await sessionAs(gw, 'owner', owner.tenantId);
    const stepped = await request(gw.url)
      .patch(`/api/v1/users/${owner.userId}`)
      .set(owner.headers)
      .send({ role: 'viewer' })
      .expect(200);
    expect(stepped.body.data).toMatchObject({ user_id: owner.userId, role: 'viewer' });
    await request(gw.url).delete(`/api/v1/users/${second.userId}`).set(second.headers).expect(409);
  });

  it("when an owner removes a colleague, then the colleague's sessions end at once", async () => {
    const owner = await sessionAs(gw, 'owner');
    const agent = await sessionAs(gw, 'agent', owner.tenantId);
    await request(gw.url).get('/api/v1/users').set(agent.headers).expect(200);
    const removed = await request(gw.url)
      .delete(`/api/v1/users/${agent.userId}`)
      .set(owner.headers)
      .expect(200);
    expect(removed.body.data).toEqual({ user_id: agent.userId, removed: true });
    // Ended in Redis at once (an open inbox stream checks only that), before the user's next request.
    const sessions = new SessionStore(gw.gateway.redis, 600_000, 3_600_000);
    expect(await sessions.isLive(agent.headers.Cookie.slice('bm_session='.length))).toBe(false);
    const after = await request(gw.url).get('/api/v1/users').set(agent.headers).expect(401);
    expect(after.body.error.code).toBe('SESSION_EXPIRED');
    const team = await request(gw.url).get('/api/v1/users').set(owner.headers).expect(200);
    const users = team.body.data.users as Array<{ user_id: string }>;
    expect(users.map((u) => u.user_id)).toEqual([owner.userId]);
  });

  it('when a session or a key changes something, then the audit log shows who, what, from where; no other tenant sees it', async () => {
    const admin = await sessionAs(gw, 'admin');
    const stranger = await sessionAs(gw, 'owner');
    const issued = await request(gw.url)
      .post('/api/v1/api-keys')
      .set(admin.headers)
      .send({ name: 'ci', password: 'never-logged' })
      .expect(422);
    const revoked = await request(gw.url)
      .delete(`/api/v1/api-keys/${SOME_ULID}`)
      .set('Authorization', `Bearer ${admin.apiKey}`)
      .expect(404);
    const keyId = admin.apiKey.slice('bm_live_'.length, 'bm_live_'.length + 26);
    const list = async (query: string, as = admin) => {
      const res = await request(gw.url).get(`/api/v1/audit-log${query}`).set(as.headers).expect(200);
      return res.body.data as { entries: Array<Record<string, unknown>>; pagination: unknown };
    };
    await waitFor(async () => (await list('')).entries.length === 2, { what: 'two audit entries' });
    const { entries, pagination } = await list('');
    expect(pagination).toEqual({ current_page: 1, per_page: 50, total: 2, last_page: 1 });
    expect(entries[0]).toMatchObject({
      action: 'revokeApiKey',
      method: 'DELETE',
      path: `/api/v1/api-keys/${SOME_ULID}`,
      target: { keyId: SOME_ULID },
      status: 404,
      request_id: revoked.headers['x-request-id'],
    });
    expect(entries[0].actor).toEqual({ type: 'api_key', key_id: keyId });
    expect(entries[1]).toEqual({
      id: expect.any(String),
      actor: { type: 'user', user_id: admin.userId, email: admin.email },
      action: 'issueApiKey',
      method: 'POST',
      path: '/api/v1/api-keys',
      target: {},
      status: 422,
      ip: expect.stringMatching(/127\.0\.0\.1$/),
      request_id: issued.headers['x-request-id'],
      created_at: expect.any(String),
    });
    expect(JSON.stringify(entries)).not.toContain('never-logged');
    expect((await list(`?actor=${admin.email}`)).entries).toHaveLength(1);
    expect((await list(`?actor=${admin.userId}&action=revokeApiKey`)).entries).toHaveLength(0);
    expect((await list('?action=revokeApiKey')).entries).toHaveLength(1);
    expect((await list(`?from=${new Date(Date.now() + 60_000).toISOString()}`)).entries).toHaveLength(0);
    expect((await list('', stranger)).entries).toEqual([]);
    expect((await list(`?actor=${admin.email}`, stranger)).entries).toEqual([]);
  });

  it("when a path's id holds a NUL, then its entry is kept, and so are the others written with it", async () => {
    const owner = await sessionAs(gw, 'owner');
    const auth = { Authorization: `Bearer ${owner.apiKey}` };
    await Promise.all([
      request(gw.url).delete('/api/v1/api-keys/a%00b').set(auth).expect(404),
      request(gw.url).delete(`/api/v1/api-keys/${SOME_ULID}`).set(auth).expect(404),
    ]);
    const targets = await waitFor(
      async () => {
        const res = await request(gw.url).get('/api/v1/audit-log').set(owner.headers).expect(200);
        const entries = res.body.data.entries as Array<{ target: { keyId: string } }>;
        return entries.length === 2 && entries.map((e) => e.target.keyId).sort();
      },
      { what: 'both audit entries' },
    );
    expect(targets).toEqual([SOME_ULID, 'a\uFFFDb']);
  });
});
