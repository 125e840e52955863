import request from 'supertest';
import { startTcpProxy, type TcpProxy } from '@bm/platform/testing';
import { startGateway, type TestGateway } from './factories/gateway';

describe('GET /api/health', () => {
  it('when the database and the cache answer, then 200 healthy with every check true', async () => {
    const gw = await startGateway();
    try {
      const res = await request(gw.url).get('/api/health').expect(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          status: 'healthy',
          checks: { app: true, database: true, cache: true },
          timestamp: expect.any(String),
        },
      });
      expect(new Date(res.body.data.timestamp as string).toISOString()).toBe(res.body.data.timestamp);
    } finally {
      await gw.stop();
    }
  });

  describe('when the database becomes unreachable', () => {
    let proxy: TcpProxy;
    let gw: TestGateway;
    beforeAll(async () => {
      proxy = await startTcpProxy('127.0.0.1', 5432);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.port = String(proxy.port);
      gw = await startGateway({ DATABASE_URL: url.toString(), HEALTH_TIMEOUT_MS: '500' });
    });
    afterAll(async () => {
      await gw.stop();
      await proxy.close();
    });

    it('then 503 SERVICE_DEGRADED with database false, and healthy again once it is back', async () => {
      proxy.cut();
      const started = Date.now();
      const res = await request(gw.url).get('/api/health');
      // Answered by its 500 ms deadline instead of hanging on the cut connection (until the test's 30 s): 10 s
      // tells the two apart however loaded the machine, and is no speed target.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        success: false,
        error: {
          code: 'SERVICE_DEGRADED',
          message: expect.any(String),
          details: {
            status: 'degraded',
            checks: { app: true, database: false, cache: true },
            timestamp: expect.any(String),
          },
        },
      });
      proxy.restore();
      let healthy = false;
      for (let i = 0; i < 40 && !healthy; i += 1) {
        healthy = (await request(gw.url).get('/api/health')).status === 200;
        if (!healthy) await new Promise((r) => setTimeout(r, 100));
      }
      expect(healthy).toBe(true);
    });
  });

  it('when the cache is unreachable, then 503 with cache false and the answer still comes quickly', async () => {
    const gw = await startGateway({ REDIS_URL: 'redis://127.0.0.1:1', HEALTH_TIMEOUT_MS: '500' });
    try {
      const started = Date.now();
      const res = await request(gw.url).get('/api/health');
      // Quickly: by its 500 ms deadline, not stuck on the unreachable cache; 10 s is the margin of a loaded machine.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(res.status).toBe(503);
      expect(res.body.error.details.checks).toEqual({ app: true, database: true, cache: false });
      expect(res.body.error.details.status).toBe('degraded');
    } finally {
      await gw.stop();
    }
  });
});

describe('gateway probes', () => {
  it('when the cache is down, then /health/ready stays 200 (requests pass unmetered) and /health/live answers', async () => {
    const gw = await startGateway({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      await request(gw.url).get('/health/live').expect(200);
      const ready = await request(gw.url).get('/health/ready').expect(200);
      expect(ready.body.data.checks).toEqual({ accepting: true, database: true });
    } finally {
      await gw.stop();
    }
  });
});
