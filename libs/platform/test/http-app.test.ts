import request from 'supertest';
import {
  AppError,
  createHttpApp,
  createLogger,
  defineRoutes,
  startHttpServer,
  type RunningServer,
} from '@bm/platform';

describe('createHttpApp: every failure in the envelope', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger('test', 'silent'),
      bodyLimit: '1kb',
      routes: (a) =>
        defineRoutes(a.router, [
          {
            method: 'POST',
            path: '/echo',
            handlers: [(req, res) => res.json({ success: true, data: req.body })],
          },
          {
            method: 'GET',
            path: '/items/:id',
            handlers: [(req, res) => res.json({ success: true, data: { id: req.params.id } })],
          },
          {
            method: 'GET',
            path: '/boom',
            handlers: [
              () => {
                throw new Error('secret stack detail');
              },
            ],
          },
          {
            method: 'GET',
            path: '/async-conflict',
            handlers: [
              async () => {
                await Promise.resolve();
                throw new AppError('CAMPAIGN_NOT_CANCELLABLE', undefined, { status: 'processing' });
              },
            ],
          },
        ]),
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  const expectEnvelope = (res: request.Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(code);
    expect(typeof res.body.error.message).toBe('string');
  };

  it('when the JSON is malformed, then 400 INVALID_JSON', async () => {
    expectEnvelope(
      await request(server.url).post('/echo').set('Content-Type', 'application/json').send('{"a":'),
      400,
      'INVALID_JSON',
    );
  });

  it('when the body is too large, then 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(server.url)
      .post('/echo')
      .send({ big: 'x'.repeat(2048) });
    expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it.each(['gzip', 'deflate', 'br'])(
    'when a %s body does not inflate, then 400 INVALID_JSON',
    async (encoding) => {
      expectEnvelope(
        await request(server.url)
          .post('/echo')
          .set({ 'Content-Type': 'application/json', 'Content-Encoding': encoding })
          .send('not compressed at all'),
        400,
        'INVALID_JSON',
      );
    },
  );

  it('when a path parameter is not valid percent-encoding, then 404 NOT_FOUND', async () => {
    expectEnvelope(await request(server.url).get('/items/%E0%A4%A'), 404, 'NOT_FOUND');
  });

  it('when the body is not JSON, then 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await request(server.url).post('/echo').set('Content-Type', 'text/plain').send('hello');
    expectEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('when the route is unknown, then 404 NOT_FOUND; a known path with another method, then 405', async () => {
    expectEnvelope(await request(server.url).get('/nothing-here'), 404, 'NOT_FOUND');
    const res = await request(server.url).delete('/echo');
    expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('POST');
  });

  it('when a handler crashes, then 500 INTERNAL_ERROR without the cause', async () => {
    const res = await request(server.url).get('/boom');
    expectEnvelope(res, 500, 'INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('secret stack detail');
  });

  it('when an async handler throws an AppError, then its code, status and details are answered', async () => {
    const res = await request(server.url).get('/async-conflict');
    expectEnvelope(res, 409, 'CAMPAIGN_NOT_CANCELLABLE');
    expect(res.body.error.details).toEqual({ status: 'processing' });
  });

  it('when the client sends X-Request-Id, then it is echoed; otherwise one is made', async () => {
    const echoed = await request(server.url).get('/nothing-here').set('X-Request-Id', 'req-123');
    expect(echoed.headers['x-request-id']).toBe('req-123');
    const made = await request(server.url).get('/nothing-here');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const injected = await request(server.url).get('/nothing-here').set('X-Request-Id', 'bad id with spaces');
    expect(injected.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('when any answer is sent, then helmet headers are present', async () => {
    const res = await request(server.url).get('/nothing-here');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('createHttpApp: a dependency that is down', () => {
  it('when PostgreSQL refuses the connection, then 503 SERVICE_UNAVAILABLE instead of a 500', async () => {
    const app = createHttpApp({
      logger: createLogger('test', 'silent'),
      routes: (a) =>
        defineRoutes(a.router, [
          {
            method: 'GET',
            path: '/db',
            handlers: [
              () => {
                throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
                  code: 'ECONNREFUSED',
                });
              },
            ],
          },
        ]),
    });
    const server = await startHttpServer(app, 0, '127.0.0.1');
    try {
      const res = await request(server.url).get('/db');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
      });
    } finally {
      await server.close();
    }
  });
});
