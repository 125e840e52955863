import type { AddressInfo } from 'node:net';
import Joi from 'joi';
import { setTimeout as sleep } from 'node:timers/promises';
import { internalEndpoint } from '@bm/contracts';
import {
  AppError,
  createHttpApp,
  createLogger,
  defineRoutes,
  InternalCallError,
  InternalClient,
  internalRoute,
  isTransientFailure,
  requireInternalCaller,
  startHttpServer,
  tenantOf,
  type RunningServer,
} from '@bm/platform';

const TOKEN = 'internal-client-test-token';

const lookup = internalEndpoint<
  { id: string },
  { name: string; limit?: number },
  { id: string; name: string; limit: number; tenant: number }
>({
  method: 'GET',
  path: '/internal/v1/things/:id',
  input: Joi.object({ name: Joi.string().required(), limit: Joi.number().integer().default(10) }),
});
const reserve = internalEndpoint<{ id: string }, { count: number }, { granted: number }>({
  method: 'POST',
  path: '/internal/v1/things/:id/reservations',
  input: Joi.object({ count: Joi.number().integer().min(0).required() }),
});
const refuse = internalEndpoint<{ code: string }, undefined, never>({
  method: 'DELETE',
  path: '/internal/v1/refuse/:code',
});
const unavailable = internalEndpoint<{ status: string }, undefined, never>({
  method: 'GET',
  path: '/internal/v1/unavailable/:status',
});
const broken = internalEndpoint<Record<string, never>, undefined, never>({
  method: 'GET',
  path: '/internal/v1/broken',
});
const slow = internalEndpoint<Record<string, never>, undefined, { late: true }>({
  method: 'GET',
  path: '/internal/v1/slow',
});

/** The error a call rejects with. */
async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('the call succeeded');
}

describe('InternalClient: one client for calls between services, against a real HTTP server', () => {
  let server: RunningServer;
  let client: InternalClient;
  const connections = { count: 0 };

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger('test', 'silent'),
      routes: (a) => {
        a.use(requireInternalCaller(TOKEN));
        defineRoutes(a.router, [
          internalRoute(lookup, ({ params, input }, res) => ({
            id: params.id,
            name: input.name,
            limit: input.limit ?? 0,
            tenant: tenantOf(res),
          })),
          internalRoute(reserve, ({ input }) => ({ granted: input.count })),
          internalRoute(refuse, ({ params }) => {
            throw new AppError(params.code as 'CHANNEL_ACCOUNT_NOT_FOUND', 'not here', {
              asked: params.code,
            });
          }),
          {
            method: 'GET',
            path: unavailable.path,
            handlers: [(req, res) => res.status(Number(req.params.status)).send('<html>bad gateway</html>')],
          },
          internalRoute(broken, () => {
            throw new Error('a bug of the callee');
          }),
          // Answers well after the client's timeout.
          internalRoute(slow, async () => {
            await sleep(1_500);
            return { late: true };
          }),
        ]);
      },
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
    server.server.on('connection', () => (connections.count += 1));
    client = new InternalClient({ service: 'things', baseUrl: server.url, token: TOKEN, timeoutMs: 500 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('when the callee answers, then the call resolves with the envelope data, parameters, query and tenant carried', async () => {
    const data = await client.call(lookup, {
      params: { id: 'a/../b c' },
      input: { name: 'x y' },
      tenantId: 42,
    });

    expect(data).toEqual({ id: 'a/../b c', name: 'x y', limit: 10, tenant: 42 });
  });

  it('when the callee takes a body, then it is sent as JSON and validated by the contract', async () => {
    await expect(client.call(reserve, { params: { id: '1' }, input: { count: 7 } })).resolves.toEqual({
      granted: 7,
    });

    const refused = await failureOf(client.call(reserve, { params: { id: '1' }, input: { count: -1 } }));
    // The caller built the call wrong: not the client's refusal to pass on, and not worth waiting out.
    expect(refused).toBeInstanceOf(InternalCallError);
    expect(refused).toMatchObject({ httpStatus: 422, calleeCode: 'VALIDATION_ERROR' });
    expect(isTransientFailure(refused)).toBe(false);
  });

  it("when the callee refuses with a documented code, then the caller gets an AppError with the callee's code", async () => {
    const err = await failureOf(client.call(refuse, { params: { code: 'CHANNEL_ACCOUNT_NOT_FOUND' } }));

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'CHANNEL_ACCOUNT_NOT_FOUND',
      status: 404,
      message: 'not here',
      details: { asked: 'CHANNEL_ACCOUNT_NOT_FOUND' },
    });
    expect(isTransientFailure(err)).toBe(false);
  });

  it('when the token is wrong, then the callee answers 401 INVALID_API_KEY', async () => {
    const stranger = new InternalClient({
      service: 'things',
      baseUrl: server.url,
      token: 'wrong',
      timeoutMs: 500,
    });
    try {
      const err = await failureOf(stranger.call(reserve, { params: { id: '1' }, input: { count: 1 } }));
      expect(err).toMatchObject({ code: 'INVALID_API_KEY', status: 401 });
      expect(err).toBeInstanceOf(AppError);
    } finally {
      await stranger.close();
    }
  });

  it.each([502, 503, 504])(
    'when the callee answers %i, then SERVICE_UNAVAILABLE, which consumers wait out',
    async (status) => {
      const err = await failureOf(client.call(unavailable, { params: { status: String(status) } }));

      expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
      expect(isTransientFailure(err)).toBe(true);
    },
  );

  it("when the callee fails with a 500, then a permanent InternalCallError carrying the callee's status and code", async () => {
    const err = await failureOf(client.call(broken, { params: {} }));

    expect(err).toBeInstanceOf(InternalCallError);
    expect(err).toMatchObject({ httpStatus: 500, calleeCode: 'INTERNAL_ERROR' });
    expect(isTransientFailure(err)).toBe(false);
  });

  it('when the callee does not answer within the timeout, then SERVICE_UNAVAILABLE after about the timeout', async () => {
    const started = Date.now();
    const err = await failureOf(client.call(slow, { params: {} }));

    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(isTransientFailure(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when nothing listens at the address, then SERVICE_UNAVAILABLE with the connection error as its cause', async () => {
    const gone = await startHttpServer(
      createHttpApp({ logger: createLogger('test', 'silent'), routes: () => undefined }),
      0,
      '127.0.0.1',
    );
    const { port } = gone.server.address() as AddressInfo;
    await gone.close();
    const orphan = new InternalClient({
      service: 'gone',
      baseUrl: `http://127.0.0.1:${port}`,
      token: TOKEN,
      timeoutMs: 500,
    });
    try {
      const err = await failureOf(orphan.call(broken, { params: {} }));
      expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(isTransientFailure((err as Error).cause)).toBe(true);
      expect(isTransientFailure(err)).toBe(true);
    } finally {
      await orphan.close();
    }
  });

  it('when twenty calls follow one another, then they reuse kept-alive connections instead of one each', async () => {
    const before = connections.count;

    for (let i = 0; i < 20; i += 1) await client.call(reserve, { params: { id: '1' }, input: { count: i } });

    // One or two: the pool may open a second one while the first is finishing its answer.
    expect(connections.count - before).toBeLessThanOrEqual(2);
  });
});
