import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTenantWithKey, startGateway, type TestGateway } from './factories/gateway';

// Answers above the gateway's 256 KiB gathering limit stream through; below it they go out in one write.
const LARGE = 1024 * 1024;

/** A stand-in messaging service whose answer size and framing the test picks by path. */
async function startSizedService(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const items = Array.from({ length: LARGE / 32 }, (_, i) => `m-${String(i).padStart(24, '0')}`);
    const body = Buffer.from(JSON.stringify({ success: true, data: { items } }));
    const headers = { 'content-type': 'application/json', 'x-request-id': 'from-service' };
    if (req.url?.startsWith('/api/v1/messages?framing=chunked')) {
      // No length: written in 64 KiB pieces, chunked on the wire.
      res.writeHead(200, headers);
      for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.subarray(i, i + 64 * 1024));
      res.end();
      return;
    }
    const hop = /^\/api\/v1\/messages\?hop=(50[24])/.exec(req.url ?? '');
    if (hop) {
      // A balancer in front of the service whose replica died mid-request: a bare page, not our envelope.
      res.writeHead(Number(hop[1]), { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    if (req.url?.startsWith('/api/v1/messages?framing=cut')) {
      // The service dies halfway through a large answer.
      res.writeHead(200, { ...headers, 'content-length': String(body.length) });
      res.write(body.subarray(0, body.length / 2), () => res.destroy());
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('answers relayed through the gateway', () => {
  let gw: TestGateway;
  let messaging: Awaited<ReturnType<typeof startSizedService>>;
  let apiKey: string;

  beforeAll(async () => {
    messaging = await startSizedService();
    gw = await startGateway({ MESSAGING_URL: messaging.url });
    ({ apiKey } = await createTenantWithKey(gw.url));
  });
  afterAll(async () => {
    await gw.stop();
    await messaging.close();
  });

  it.each(['length', 'chunked'])(
    'when a large answer comes with framing %s, then it streams through whole with the gateway headers',
    async (framing) => {
      const res = await request(gw.url)
        .get(`/api/v1/messages?framing=${framing}`)
        .set('Authorization', `Bearer ${apiKey}`)
        .expect(200);
      expect((res.body as { data: { items: string[] } }).data.items).toHaveLength(LARGE / 32);
      expect(res.headers['x-request-id']).not.toBe('from-service');
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
      expect(res.headers['content-security-policy']).toBeDefined();
    },
  );

  it('when the service dies halfway through a large answer, then the client sees the answer cut, not a whole one', async () => {
    await expect(
      request(gw.url).get('/api/v1/messages?framing=cut').set('Authorization', `Bearer ${apiKey}`),
    ).rejects.toThrow();
    // The gateway stays up and answers the next request.
    await request(gw.url)
      .get('/api/v1/messages?framing=length')
      .set('Authorization', `Bearer ${apiKey}`)
      .expect(200);
  });

  it.each(['502', '504'])(
    'when a hop between the gateway and the service answers a bare %s, then the client gets the envelope and Retry-After',
    async (status) => {
      const res = await request(gw.url)
        .get(`/api/v1/messages?hop=${status}`)
        .set('Authorization', `Bearer ${apiKey}`)
        .expect(503);
      expect(res.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['content-security-policy']).toBeDefined();
    },
  );
});
