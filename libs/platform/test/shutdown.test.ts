import request from 'supertest';
import { createHttpApp, createLogger, handleShutdown, serviceHealthRoutes, startHttpServer } from '../src';

describe('graceful shutdown', () => {
  it('turns readiness false before any part closes, then closes the parts in order', async () => {
    const logger = createLogger('shutdown-test', 'silent');
    const app = createHttpApp({
      logger,
      routes: (a) => serviceHealthRoutes(a.router, { database: () => Promise.resolve() }),
    });
    const server = await startHttpServer(app, 0, '127.0.0.1');
    const order: string[] = [];
    let readinessDuringFirstClose = 0;
    const shutdown = handleShutdown(
      logger,
      [
        {
          name: 'first',
          close: async () => {
            readinessDuringFirstClose = (await request(server.url).get('/health/ready')).status;
            order.push('first');
          },
        },
        { name: 'http', close: () => server.close().then(() => void order.push('http')) },
      ],
      5_000,
    );
    expect((await request(server.url).get('/health/ready')).body.data.checks).toEqual({
      accepting: true,
      database: true,
    });
    await shutdown();
    expect(readinessDuringFirstClose).toBe(503);
    expect(order).toEqual(['first', 'http']);
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  });
});
