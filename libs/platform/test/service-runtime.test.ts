import request from 'supertest';
import {
  commonEnvSchema,
  createDataSource,
  createServiceRuntime,
  GroupCommit,
  loadConfig,
  openServiceBase,
  type BackgroundPart,
  type CommonConfig,
  type ServiceBase,
} from '@bm/platform';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';

/*
 * The runtime every service wires into, on the real database and broker: what its HTTP side answers, and the
 * order it stops in.
 */
const config = loadConfig<CommonConfig>(commonEnvSchema, testEnv({ LOG_LEVEL: 'silent' }));
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

async function base(): Promise<ServiceBase> {
  const opened = await openServiceBase(
    `runtime-test-${uniqueSuffix()}`,
    config,
    createDataSource({
      url: config.DATABASE_URL,
      schema: 'public',
      entities: [],
      migrations: [],
      poolSize: 2,
    }),
  );
  closers.push(async () => {
    await opened.amqp.close();
    if (opened.dataSource.isInitialized) await opened.dataSource.destroy();
  });
  return opened;
}

/** A background part that records its start and stop. */
function part(name: string, order: string[]): BackgroundPart {
  return {
    start: () => void order.push(`start ${name}`),
    stop: () => Promise.resolve(void order.push(`stop ${name}`)),
  };
}

describe('createServiceRuntime', () => {
  it('when started, then probes answer without a credential, the public routes too, and the API only with it', async () => {
    const parts = await base();
    const runtime = createServiceRuntime({
      ...parts,
      port: 0,
      http: {
        publicRoutes: (router) => router.get('/open', (_req, res) => res.json({ open: true })),
        routes: (router) => router.get('/internal', (_req, res) => res.json({ internal: true })),
      },
    });
    closers.push(() => runtime.close());
    const server = await runtime.start();

    const ready = await request(server.url).get('/health/ready').expect(200);
    expect(ready.body.data.checks).toEqual({ accepting: true, database: true, broker: true });
    await request(server.url).get('/open').expect(200, { open: true });
    expect((await request(server.url).get('/internal').expect(401)).body.error.code).toBe('INVALID_API_KEY');
    await request(server.url)
      .get('/internal')
      .set('x-internal-token', config.INTERNAL_TOKEN)
      .expect(200, { internal: true });
  });

  it('when API-only, then no worker starts and readiness does not ask for the broker', async () => {
    const parts = await base();
    const order: string[] = [];
    const runtime = createServiceRuntime({
      ...parts,
      port: 0,
      workers: false,
      http: { routes: () => undefined },
      tasks: [part('task', order)],
    });
    closers.push(() => runtime.close());
    const server = await runtime.start();

    const ready = await request(server.url).get('/health/ready').expect(200);
    expect(ready.body.data.checks).toEqual({ accepting: true, database: true });
    expect(order).toEqual([]);
  });

  it('when closed, then it stops in reverse order of start: HTTP, consumers (handlers finished), tasks, drains, relay, broker, own clients, database', async () => {
    const parts = await base();
    const order: string[] = [];
    const s = uniqueSuffix();
    let handlerRunning = false;
    // A group that lingers: only the drain writes what it holds.
    const group = new GroupCommit<string>(
      (items) => Promise.resolve(order.push(`group ${items.join(',')}`)),
      {
        name: 'test group',
        lingerMs: 60_000,
      },
    );
    const runtime = createServiceRuntime({
      ...parts,
      port: 0,
      http: { routes: () => undefined },
      consumers: () =>
        parts.amqp.consume(`runtime-${s}`, [`runtime.${s}`], async () => {
          handlerRunning = true;
          await new Promise((resolve) => setTimeout(resolve, 300));
          order.push('handler finished');
        }),
      relay: part('relay', order),
      tasks: [part('first task', order), part('second task', order)],
      drain: [group],
      connections: [
        {
          name: 'own client',
          close: () => {
            order.push(`close own client (broker connected: ${parts.amqp.isConnected()})`);
          },
        },
      ],
    });
    const server = await runtime.start();
    expect(order).toEqual(['start relay', 'start first task', 'start second task']);
    void group.submit('held');
    await parts.amqp.publish(`runtime.${s}`, {}, { messageId: `m-${s}` });
    await waitFor(() => handlerRunning, { what: 'the handler running' });

    await runtime.close();

    expect(order.slice(3)).toEqual([
      'handler finished',
      'stop second task',
      'stop first task',
      'group held',
      'stop relay',
      'close own client (broker connected: false)',
    ]);
    expect(parts.dataSource.isInitialized).toBe(false);
    await expect(request(server.url).get('/health/live')).rejects.toThrow();
  });
});
