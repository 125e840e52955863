import request from 'supertest';
import { createTenantWithKey, useGateway } from './factories/gateway';

/** The value of the series with exactly these labels (in exposition order), 0 when absent. */
function count(text: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`bm_http_requests_total{${labels}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics on the gateway', () => {
  const gw = useGateway();

  it('when a client called the public API, then /metrics answers without an API key and counts the call under its route template', async () => {
    const { apiKey } = await createTenantWithKey(gw.url);
    const labels = 'method="GET",route="/api/v1/messages/:id",status="200"';
    const before = count((await request(gw.url).get('/metrics').expect(200)).text, labels);

    await request(gw.url).get('/api/v1/messages/41').set('Authorization', `Bearer ${apiKey}`).expect(200);
    await request(gw.url).get('/api/v1/messages/42').set('Authorization', `Bearer ${apiKey}`).expect(200);

    const res = await request(gw.url).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(count(res.text, labels)).toBe(before + 2);
    expect(res.text).toContain('service="gateway"');
    expect(res.text).not.toContain('/api/v1/messages/41');
  });

  it('when an unknown path is asked, then it counts under one "unmatched" route whatever the path', async () => {
    const labels = 'method="GET",route="unmatched",status="404"';
    const before = count((await request(gw.url).get('/metrics')).text, labels);
    await request(gw.url).get('/no-such-page-1').expect(404);
    await request(gw.url).get('/no-such-page-2').expect(404);
    const text = (await request(gw.url).get('/metrics')).text;
    expect(count(text, labels)).toBe(before + 2);
    expect(text).not.toContain('no-such-page');
  });
});
