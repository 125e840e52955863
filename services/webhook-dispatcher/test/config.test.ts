import { loadDispatcherConfig } from '../src/config';

describe('dispatcher configuration', () => {
  it('when nothing is set, then the published delivery rules are the defaults', () => {
    const c = loadDispatcherConfig({ NODE_ENV: 'production' });
    expect(c).toMatchObject({
      DISPATCHER_PORT: 3004,
      DISPATCHER_TIMEOUT_MS: 10_000,
      DISPATCHER_MAX_RETRIES: 3,
      DISPATCHER_RETRY_INTERVAL_MS: 10_000,
      DISPATCHER_SECRET_GRACE_MS: 24 * 3600 * 1000,
      DISPATCHER_SERVICE_NAME: 'BusinessMessaging',
      DISPATCHER_ALLOW_HTTP: false,
      DISPATCHER_ALLOWED_HOSTS: '',
    });
  });

  it('when running locally, then http to this machine is allowed out of the box', () => {
    const c = loadDispatcherConfig({});
    expect(c.DISPATCHER_ALLOW_HTTP).toBe(true);
    expect(c.DISPATCHER_ALLOWED_HOSTS.split(',')).toEqual(expect.arrayContaining(['127.0.0.1', 'localhost']));
  });

  it('when production asks for http, then the configuration is refused', () => {
    expect(() => loadDispatcherConfig({ NODE_ENV: 'production', DISPATCHER_ALLOW_HTTP: 'true' })).toThrow(
      /DISPATCHER_ALLOW_HTTP/,
    );
  });
});
