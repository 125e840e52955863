import request from 'supertest';
import { PUBLIC_ROUTES } from '@bm/contracts';
import { startGateway, type TestGateway } from './factories/gateway';

describe('the API documentation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.stop();
  });

  it('when GET /api/openapi.json without a key, then 200 with the raw OpenAPI 3.1 document and helmet headers', async () => {
    const res = await request(gw.url).get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.success).toBeUndefined();
    expect(Object.keys(res.body.paths as object)).toEqual(expect.arrayContaining(['/api/v1/messages/send']));
    expect(Object.keys(res.body.paths as object).length).toBeGreaterThanOrEqual(
      new Set(PUBLIC_ROUTES.map((r) => r.path)).size,
    );
  });

  it('when GET /api/docs, then 200 HTML under helmet CSP that loads only local assets, each served', async () => {
    const res = await request(gw.url).get('/api/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const page = res.text;
    expect(page).not.toMatch(/<script>/); // no inline script: CSP would block it
    const urls = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const url of urls) {
      expect(url).toMatch(/^\/api\/docs\//); // same origin, no CDN
      const asset = await request(gw.url).get(url);
      expect({ url, status: asset.status }).toEqual({ url, status: 200 });
    }
    const script = await request(gw.url).get('/api/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    const init = await request(gw.url).get('/api/docs/initializer.js').expect(200);
    expect(init.text).toContain("url: '/api/openapi.json'");
  });

  it('when an asset does not exist, then 404 NOT_FOUND in the envelope', async () => {
    const res = await request(gw.url).get('/api/docs/assets/nope.js').expect(404);
    expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('when POST /api/openapi.json, then 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const res = await request(gw.url).post('/api/openapi.json').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
