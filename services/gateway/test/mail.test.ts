import request from 'supertest';
import { Client } from 'pg';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';
import { capturedLogText } from '../../../test/support/log-capture';
import { linkIn, startSmtpInbox, type SmtpInbox } from '../../../test/support/smtp-inbox';
import { useFixture } from '../../../test/support/use-fixture';
import { createTenantWithKey, startGateway, type TestGateway } from './factories/gateway';
import { invite, newEmail, PASSWORD, sameOrigin, signedInUser, tokenOf } from './factories/dashboard-users';

const NEW_PASSWORD = 'a brand new passphrase';
const RESET_SUBJECT = /reset your/i;

describe('invites and password resets over e-mail', () => {
  const env = useFixture(
    async () => {
      const inbox = await startSmtpInbox();
      const gw = await startGateway({
        SMTP_URL: inbox.url,
        MAIL_FROM: 'Console <console@example.com>',
        // Its own cache prefix: the reset counts of other files' gateways (same IP) stay out.
        REDIS_PREFIX: `${testEnv().REDIS_PREFIX}mail-${uniqueSuffix()}:`,
        PASSWORD_RESET_MAX_PER_EMAIL: '3',
      });
      return { inbox, gw };
    },
    async ({ inbox, gw }) => {
      await gw.stop();
      await inbox.close();
    },
  );
  let inbox: SmtpInbox;
  let gw: TestGateway;
  let db: Client;
  /** Every link token a mail carried, none of which may reach a log line. */
  const tokens: string[] = [];

  beforeAll(async () => {
    ({ inbox, gw } = env);
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
  });

  const askReset = (email: string) =>
    request(gw.url).post('/api/auth/password-reset').set(sameOrigin(gw.url)).send({ email });
  const resetWith = (token: string, password = NEW_PASSWORD) =>
    request(gw.url).post('/api/auth/reset-password').set(sameOrigin(gw.url)).send({ token, password });
  const passwordHashOf = async (email: string) =>
    (await db.query(`SELECT password_hash FROM gateway.dashboard_users WHERE email = $1`, [email])).rows[0]
      .password_hash as string;
  const resetTokenOf = async (email: string, nth = 1) => {
    const mails = await inbox.waitForMails(email, nth, RESET_SUBJECT);
    const token = tokenOf(linkIn(mails[nth - 1].text, '/dashboard/reset-password'));
    tokens.push(token);
    return token;
  };

  it('when the operator invites a user, then the link is mailed, and setting the password from it signs in', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const email = newEmail();
    const invited = await invite(gw.url, tenantId, email).expect(201);
    const mail = await inbox.waitForMail(email, /invited/i);
    expect(mail.from).toBe('console@example.com');
    const link = linkIn(mail.text, '/dashboard/set-password');
    expect(link).toBe(invited.body.data.invite_url);
    tokens.push(tokenOf(link));

    const set = await request(gw.url)
      .post('/api/auth/set-password')
      .set(sameOrigin(gw.url))
      .send({ token: tokenOf(link), password: PASSWORD })
      .expect(200);
    expect(set.body.data).toMatchObject({ user_id: invited.body.data.user_id, tenant_id: tenantId, email });
    expect(set.body.data.user).toMatchObject({ tenant_id: tenantId, email });
    const cookie = String(set.headers['set-cookie']).split(';')[0];
    expect(cookie).toMatch(/^bm_session=[A-Za-z0-9_-]{43}$/);
    const session = await request(gw.url).get('/api/auth/session').set('Cookie', cookie).expect(200);
    expect(session.body.data.csrf_token).toBe(set.body.data.csrf_token);
  });

  it('when an owner invites a colleague from the dashboard, then the link is mailed with the role it gives', async () => {
    const { apiKey } = await createTenantWithKey(gw.url);
    const email = newEmail();
    const invited = await request(gw.url)
      .post('/api/v1/users')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ email, role: 'agent' })
      .expect(201);
    const mail = await inbox.waitForMail(email, /invited/i);
    const link = linkIn(mail.text, '/dashboard/set-password');
    expect(link).toBe(invited.body.data.invite_url);
    tokens.push(tokenOf(link));
    const set = await request(gw.url)
      .post('/api/auth/set-password')
      .set(sameOrigin(gw.url))
      .send({ token: tokenOf(link), password: PASSWORD })
      .expect(200);
    expect(set.body.data).toMatchObject({ email, role: 'agent', user: { email, role: 'agent' } });
  });

  it('when a reset is asked for an unknown address or through a foreign Host, then the answer is the same and nothing is sent', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const known = { email: newEmail() };
    await invite(gw.url, tenantId, known.email).expect(201);
    const unknown = newEmail();
    const forUnknown = await askReset(unknown).expect(202);
    const foreign = await request(gw.url)
      .post('/api/auth/password-reset')
      .set('Host', 'evil.example')
      .set('Origin', 'http://evil.example')
      .send({ email: known.email })
      .expect(202);
    const forKnown = await askReset(known.email).expect(202);
    expect(forUnknown.body).toEqual(forKnown.body);
    expect(foreign.body).toEqual(forKnown.body);
    expect(forKnown.body.data).toEqual({ accepted: true });
    await resetTokenOf(known.email);
    // The foreign-Host request came first; only the loopback one was mailed (to the gateway's own origin).
    const mails = inbox.mails.filter((m) => m.to.includes(known.email) && RESET_SUBJECT.test(m.subject));
    expect(mails).toHaveLength(1);
    expect(linkIn(mails[0].text, '/reset-password').startsWith(`${gw.url}/dashboard/`)).toBe(true);
    expect(inbox.mails.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('when a reset link is used, then the password changes, the user is signed in, other sessions end, and the link is spent', async () => {
    const user = await signedInUser(gw.url);
    const before = await passwordHashOf(user.email);
    await askReset(user.email).expect(202);
    const token = await resetTokenOf(user.email);

    const reset = await resetWith(token).expect(200);
    const cookie = String(reset.headers['set-cookie']).split(';')[0];
    expect(cookie).toMatch(/^bm_session=[A-Za-z0-9_-]{43}$/);
    expect(reset.body.data.user).toMatchObject({ tenant_id: user.tenantId, email: user.email });
    await request(gw.url).get('/api/auth/session').set('Cookie', cookie).expect(200);
    const old = await request(gw.url).get('/api/auth/session').set('Cookie', user.cookie).expect(401);
    expect(old.body.error.code).toBe('SESSION_EXPIRED');
    const after = await passwordHashOf(user.email);
    expect(after).toMatch(/^scrypt\$/);
    expect(after).not.toBe(before);

    const again = await resetWith(token, 'yet another passphrase').expect(410);
    expect(again.body.error.code).toBe('RESET_LINK_EXPIRED');
  });

  it('when a reset link is past its hour, voided by a newer one, or unknown, then 410, 410 and 404', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const email = newEmail();
    const invited = await invite(gw.url, tenantId, email).expect(201);
    await inbox.waitForMail(email, /invited/i);
    await askReset(email).expect(202);
    const first = await resetTokenOf(email, 1);
    await askReset(email).expect(202);
    const second = await resetTokenOf(email, 2);
    const stored = await db.query(
      `SELECT encode(token_hash, 'hex') AS h, expires_at FROM gateway.password_resets WHERE user_id = $1`,
      [invited.body.data.user_id],
    );
    expect(stored.rows).toHaveLength(2);
    for (const row of stored.rows) expect(row.h).toHaveLength(64);
    const minutesValid =
      (Math.max(...stored.rows.map((r) => Date.parse(r.expires_at))) - Date.now()) / 60_000;
    expect(minutesValid).toBeGreaterThan(59);
    expect(minutesValid).toBeLessThanOrEqual(60);

    expect((await resetWith(first).expect(410)).body.error.code).toBe('RESET_LINK_EXPIRED');
    await db.query(
      `UPDATE gateway.password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [invited.body.data.user_id],
    );
    expect((await resetWith(second).expect(410)).body.error.code).toBe('RESET_LINK_EXPIRED');
    expect((await resetWith('A'.repeat(43)).expect(404)).body.error.code).toBe('NOT_FOUND');
  });

  it('when one address asks too often, then 429 with Retry-After', async () => {
    const email = newEmail();
    for (let i = 0; i < 3; i += 1) await askReset(email).expect(202);
    const throttled = await askReset(email).expect(429);
    expect(throttled.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('when the mail server refuses an invite, then the invite still stands and the log names no token', async () => {
    const { tenantId } = await createTenantWithKey(gw.url);
    const email = `refused-${uniqueSuffix()}@example.com`.toLowerCase();
    const invited = await invite(gw.url, tenantId, email).expect(201);
    tokens.push(tokenOf(invited.body.data.invite_url as string));
    const deadline = Date.now() + 10_000;
    while (!capturedLogText().includes('mail not sent') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const logs = capturedLogText();
    expect(logs).toContain('mail not sent');
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    for (const token of tokens) expect(logs).not.toContain(token);
  });
});
