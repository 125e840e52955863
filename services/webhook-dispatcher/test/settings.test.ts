import request from 'supertest';
import { asTenant, newTenantId, startDispatcher, type TestDispatcher } from './factories/dispatcher';

describe('webhook settings', () => {
  let dispatcher: TestDispatcher;
  // The production stance: https only, no allow-list. API only, so it never delivers the other tests' events.
  let strict: TestDispatcher;

  beforeAll(async () => {
    dispatcher = await startDispatcher();
    strict = await startDispatcher(
      { DISPATCHER_ALLOW_HTTP: 'false', DISPATCHER_ALLOWED_HOSTS: '' },
      { workers: false },
    );
  });
  afterAll(async () => {
    await dispatcher.stop();
    await strict.stop();
  });

  const put = (d: TestDispatcher, tenantId: number, body: unknown) =>
    request(d.url)
      .put('/api/v1/webhooks/settings')
      .set(asTenant(tenantId))
      .send(body as object);
  const fieldErrors = (res: request.Response) => {
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    return (res.body.error.details.errors as Array<{ field: string; message: string }>).map((e) => e.field);
  };

  it('when a tenant never set anything, then url and events are null and no secret is set', async () => {
    const res = await request(dispatcher.url).get('/api/v1/webhooks/settings').set(asTenant(newTenantId()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { url: null, events: null, secret_set: false } });
  });

  it('when settings are put, then GET answers them; an omitted events means all', async () => {
    const tenantId = newTenantId();
    const url = 'https://hooks.example.com/bm?x=1';
    const saved = await put(dispatcher, tenantId, { url, events: ['message.received', 'campaign.created'] });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      url,
      events: ['message.received', 'campaign.created'],
      secret_set: false,
    });
    await put(dispatcher, tenantId, { url }).expect(200);
    const res = await request(dispatcher.url).get('/api/v1/webhooks/settings').set(asTenant(tenantId));
    expect(res.body.data).toEqual({ url, events: null, secret_set: false });
  });

  it('when the secret is rotated, then a whsec_ secret of 32 random bytes is shown once and secret_set is true', async () => {
    const tenantId = newTenantId();
    const first = await request(dispatcher.url)
      .post('/api/v1/webhooks/settings/secret')
      .set(asTenant(tenantId));
    expect(first.status).toBe(200);
    const secret = first.body.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const second = await request(dispatcher.url)
      .post('/api/v1/webhooks/settings/secret')
      .set(asTenant(tenantId));
    expect(second.body.data.secret).not.toBe(secret);
    const res = await request(dispatcher.url).get('/api/v1/webhooks/settings').set(asTenant(tenantId));
    expect(res.body.data).toEqual({ url: null, events: null, secret_set: true });
  });

  it.each([
    ['a missing url', {}, 'url'],
    ['a relative url', { url: '/hook' }, 'url'],
    ['an ftp url', { url: 'ftp://example.com/hook' }, 'url'],
    ['an unknown event', { url: 'https://example.com', events: ['message.sent'] }, 'events[0]'],
    ['credentials in the url', { url: 'https://user:pw@example.com/hook' }, 'url'],
  ])('when the body has %s, then 422 VALIDATION_ERROR names the field', async (_what, body, field) => {
    expect(fieldErrors(await put(dispatcher, newTenantId(), body))).toContain(field);
  });

  it.each([
    ['http without the http setting', 'http://hooks.example.com/x'],
    ['127.0.0.1 without the allow-list', 'https://127.0.0.1:8443/hook'],
    ['the metadata address 169.254.169.254', 'https://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback [::1]', 'https://[::1]:8443/hook'],
    ['a private 10/8 address', 'https://10.1.2.3/hook'],
    ['an IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['a unique-local IPv6 address', 'https://[fd00::1]/hook'],
  ])('when the url uses %s (production stance), then 422 on url', async (_what, url) => {
    expect(fieldErrors(await put(strict, newTenantId(), { url }))).toEqual(['url']);
  });

  it('when the url is a public https address, then the production stance accepts it', async () => {
    await put(strict, newTenantId(), { url: 'https://93.184.215.14/hook' }).expect(200);
  });

  it('when a url is removed with null, then settings show none and the test ping is refused', async () => {
    const tenantId = newTenantId();
    await put(dispatcher, tenantId, { url: 'https://example.com/hook' }).expect(200);
    await put(dispatcher, tenantId, { url: null }).expect(200);
    const res = await request(dispatcher.url).post('/api/v1/webhooks/test').set(asTenant(tenantId));
    expect(fieldErrors(res)).toEqual(['url']);
  });

  it('when the internal credential is missing, then 401 INVALID_API_KEY', async () => {
    const res = await request(dispatcher.url).get('/api/v1/webhooks/settings').set('x-bm-tenant-id', '5');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_API_KEY');
  });
});
