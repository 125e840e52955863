import request from 'supertest';
import { Client } from 'pg';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';
import { createTenantWithKey, startGateway, useGateway, type TestGateway } from './factories/gateway';
import {
  invite,
  newEmail,
  PASSWORD,
  sameOrigin,
  setPassword,
  signedInUser,
  signInRequest,
  tokenOf,
} from './factories/dashboard-users';

describe('dashboard users, invites and sessions', () => {
  const gw = useGateway({ SESSION_IDLE_SECONDS: '3', SIGNIN_MAX_PER_IP: '1000' }, (call) => ({
    status: 200,
    body: { success: true, data: { tenant: call.headers['x-bm-tenant-id'] } },
  }));
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
  });

  it('when the operator invites a user, then the link is absolute under /dashboard, valid 24 h, stored hashed', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const email = newEmail();
    const res = await invite(gw.url, tenantId, email.toUpperCase()).expect(201);
    expect(res.body.data).toMatchObject({ tenant_id: tenantId, email });
    const url = new URL(res.body.data.invite_url as string);
    expect(url.origin).toBe(new URL(gw.url).origin);
    expect(url.pathname).toBe('/dashboard/set-password');
    const hoursValid = (Date.parse(res.body.data.invite_expires_at as string) - Date.now()) / 3_600_000;
    expect(hoursValid).toBeGreaterThan(23.9);
    expect(hoursValid).toBeLessThanOrEqual(24);
    const token = tokenOf(url.href);
    const { rows } = await db.query(
      `SELECT encode(token_hash, 'hex') AS h FROM gateway.dashboard_invites WHERE user_id = $1`,
      [res.body.data.user_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].h).not.toContain(Buffer.from(token).toString('hex'));
    expect(rows[0].h).toHaveLength(64);
  });

  it('when the tenant is unknown or the email belongs to another tenant, then 404 and 409', async () => {
    await invite(gw.url, 2_000_000_000, newEmail()).expect(404);
    const a = await createTenantWithKey(gw.url);
    const b = await createTenantWithKey(gw.url);
    const email = newEmail();
    await invite(gw.url, a.tenantId, email).expect(201);
    const res = await invite(gw.url, b.tenantId, email).expect(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('when an invite link is used twice, then the second use is 410 INVITE_EXPIRED', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const invited = await invite(gw.url, tenantId, newEmail()).expect(201);
    const token = tokenOf(invited.body.data.invite_url as string);
    await setPassword(gw.url, token).expect(200);
    const again = await setPassword(gw.url, token, 'another password entirely').expect(410);
    expect(again.body.error.code).toBe('INVITE_EXPIRED');
  });

  it('when an invite link is past its 24 h, or unknown, then 410 INVITE_EXPIRED and 404 NOT_FOUND', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const invited = await invite(gw.url, tenantId, newEmail()).expect(201);
    await db.query(
      `UPDATE gateway.dashboard_invites SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [invited.body.data.user_id],
    );
    const expired = await setPassword(gw.url, tokenOf(invited.body.data.invite_url as string)).expect(410);
    expect(expired.body.error.code).toBe('INVITE_EXPIRED');
    const unknown = await setPassword(gw.url, 'A'.repeat(43)).expect(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  it('when a user is invited again, then only the newest link works', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const email = newEmail();
    const first = await invite(gw.url, tenantId, email).expect(201);
    const second = await invite(gw.url, tenantId, email).expect(201);
    await setPassword(gw.url, tokenOf(first.body.data.invite_url as string)).expect(410);
    await setPassword(gw.url, tokenOf(second.body.data.invite_url as string)).expect(200);
  });

  it('when the password is stored, then it is an scrypt hash with OWASP parameters', async () => {
    const user = await signedInUser(gw.url);
    const { rows } = await db.query(`SELECT password_hash FROM gateway.dashboard_users WHERE email = $1`, [
      user.email,
    ]);
    expect(rows[0].password_hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(rows[0].password_hash).not.toContain(PASSWORD);
  });

  it('when signing in, then an HttpOnly SameSite=Lax cookie is set and Secure only over HTTPS', async () => {
    const user = await signedInUser(gw.url);
    expect(user.setCookie).toMatch(/^bm_session=[A-Za-z0-9_-]{43};/);
    expect(user.setCookie).toMatch(/HttpOnly/i);
    expect(user.setCookie).toMatch(/SameSite=Lax/i);
    expect(user.setCookie).toMatch(/Max-Age=43200/);
    expect(user.setCookie).not.toMatch(/Secure/i);
    const behindProxy = await signInRequest(gw.url, user.email).set('X-Forwarded-Proto', 'https').expect(200);
    expect(String(behindProxy.headers['set-cookie'])).toMatch(/; Secure/i);
    expect(behindProxy.body.data.csrf_token).not.toBe(user.csrf);
    expect(String(behindProxy.headers['set-cookie']).split(';')[0]).not.toBe(user.cookie);
  });

  it('when the password is wrong or the email unknown, then the same 401 INVALID_CREDENTIALS', async () => {
    const user = await signedInUser(gw.url);
    const wrong = await signInRequest(gw.url, user.email, 'not the password').expect(401);
    const unknown = await signInRequest(gw.url, newEmail(), PASSWORD).expect(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('when a session cookie calls /api/v1, then it acts for its tenant as an API key does', async () => {
    const user = await signedInUser(gw.url);
    const res = await request(gw.url).get('/api/v1/messages/1').set('Cookie', user.cookie).expect(200);
    expect(res.body.data.tenant).toBe(String(user.tenantId));
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const forbidden = await request(gw.url)
      .get('/api/v1/messages/1')
      .set('Cookie', user.cookie)
      .set('X-TENANT-ID', String(user.tenantId + 1))
      .expect(403);
    expect(forbidden.body.error.code).toBe('TENANT_FORBIDDEN');
  });

  it('when GET /api/auth/session, then the user, the CSRF token and both deadlines come back', async () => {
    const user = await signedInUser(gw.url);
    const res = await request(gw.url).get('/api/auth/session').set('Cookie', user.cookie).expect(200);
    expect(res.body.data.user).toMatchObject({ tenant_id: user.tenantId, email: user.email });
    expect(res.body.data.csrf_token).toBe(user.csrf);
    const absoluteHours = (Date.parse(res.body.data.absolute_expires_at as string) - Date.now()) / 3_600_000;
    expect(absoluteHours).toBeGreaterThan(11.9);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('when a state-changing request has the cookie but no CSRF token or a foreign origin, then 403 CSRF_FAILED', async () => {
    const user = await signedInUser(gw.url);
    const before = gw.messaging.calls.length;
    const attempts = [
      request(gw.url).post('/api/v1/messages/1/cancel').set('Cookie', user.cookie).set(sameOrigin(gw.url)),
      request(gw.url)
        .post('/api/v1/messages/1/cancel')
        .set('Cookie', user.cookie)
        .set('X-CSRF-Token', user.csrf)
        .set('Origin', 'https://evil.example'),
      request(gw.url)
        .post('/api/v1/messages/1/cancel')
        .set('Cookie', user.cookie)
        .set('X-CSRF-Token', user.csrf)
        .set('Sec-Fetch-Site', 'cross-site'),
      request(gw.url)
        .post('/api/v1/messages/1/cancel')
        .set('Cookie', user.cookie)
        .set('X-CSRF-Token', `${user.csrf.slice(0, -1)}x`)
        .set(sameOrigin(gw.url)),
    ];
    for (const attempt of attempts) {
      const res = await attempt.expect(403);
      expect(res.body.error.code).toBe('CSRF_FAILED');
    }
    expect(gw.messaging.calls.length).toBe(before);
    await request(gw.url)
      .post('/api/v1/messages/1/cancel')
      .set('Cookie', user.cookie)
      .set('X-CSRF-Token', user.csrf)
      .set('Sec-Fetch-Site', 'same-origin')
      .expect(200);
    expect(gw.messaging.calls.length).toBe(before + 1);
  });

  it('when signing in from another origin, then 403 CSRF_FAILED', async () => {
    const user = await signedInUser(gw.url);
    const res = await request(gw.url)
      .post('/api/auth/sign-in')
      .set('Origin', 'https://evil.example')
      .send({ email: user.email, password: PASSWORD })
      .expect(403);
    expect(res.body.error.code).toBe('CSRF_FAILED');
  });

  it('when the user signs out, then the session is revoked and its cookie cleared', async () => {
    const user = await signedInUser(gw.url);
    const noToken = await request(gw.url).post('/api/auth/sign-out').set('Cookie', user.cookie).expect(403);
    expect(noToken.body.error.code).toBe('CSRF_FAILED');
    const out = await request(gw.url)
      .post('/api/auth/sign-out')
      .set('Cookie', user.cookie)
      .set('X-CSRF-Token', user.csrf)
      .set(sameOrigin(gw.url))
      .expect(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^bm_session=;.*Max-Age=0/);
    const after = await request(gw.url).get('/api/v1/messages/1').set('Cookie', user.cookie).expect(401);
    expect(after.body.error.code).toBe('SESSION_EXPIRED');
    await request(gw.url).get('/api/auth/session').set('Cookie', user.cookie).expect(401);
  });

  it('when a session is left unused past its idle timeout, then it has ended', async () => {
    const user = await signedInUser(gw.url);
    await request(gw.url).get('/api/auth/session').set('Cookie', user.cookie).expect(200);
    // The test gateway's idle timeout is 3 s; Redis drops the key then.
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 4_000));
      status = (await request(gw.url).get('/api/auth/session').set('Cookie', user.cookie)).status;
    }
    expect(status).toBe(401);
  });

  it('when an unknown session cookie is presented, then 401 SESSION_EXPIRED', async () => {
    const res = await request(gw.url)
      .get('/api/v1/messages/1')
      .set('Cookie', `bm_session=${'x'.repeat(43)}`)
      .expect(401);
    expect(res.body.error.code).toBe('SESSION_EXPIRED');
  });
});

describe('dashboard session limits', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startGateway({
      // Its own cache prefix: the sign-in counts of the other gateways of this run (same IP) stay out.
      REDIS_PREFIX: `${testEnv().REDIS_PREFIX}limits-${uniqueSuffix()}:`,
      SESSION_IDLE_SECONDS: '60',
      SESSION_ABSOLUTE_SECONDS: '3',
      SIGNIN_MAX_PER_EMAIL: '3',
      SIGNIN_MAX_PER_IP: '8',
      SIGNIN_WINDOW_SECONDS: '60',
    });
  });
  afterAll(() => gw.stop());

  it('when a session is kept busy past its absolute lifetime, then it ends anyway', async () => {
    const user = await signedInUser(gw.url);
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await request(gw.url).get('/api/auth/session').set('Cookie', user.cookie)).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe(401);
  });

  it('when one email is tried too often, then 429 with Retry-After, even with the right password', async () => {
    const user = await signedInUser(gw.url);
    await signInRequest(gw.url, user.email, 'wrong 1').expect(401);
    await signInRequest(gw.url, user.email, 'wrong 2').expect(401);
    await signInRequest(gw.url, user.email, 'wrong 3').expect(401);
    const throttled = await signInRequest(gw.url, user.email).expect(429);
    expect(throttled.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('when one client IP tries many emails, then it is throttled too', async () => {
    // The earlier tests of this gateway already spent some of the IP's 8 attempts; the rest go here.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1) statuses.push((await signInRequest(gw.url, newEmail(), 'x')).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });
});
