import request from 'supertest';
import { asTenant, newTenantId, startDispatcher, type TestDispatcher } from './factories/dispatcher';
import { monitor, settled } from './factories/monitor';
import { startReceiver, type Reply, type Receiver } from './factories/receiver';

describe('retries, timeouts, redirects and redelivery', () => {
  let dispatcher: TestDispatcher;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    dispatcher = await startDispatcher();
  });
  afterAll(async () => {
    await dispatcher.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  /** A new tenant whose endpoint is `url`, with a test ping already queued. */
  async function pingAt(url: string) {
    const tenantId = newTenantId();
    const tenant = asTenant(tenantId);
    await request(dispatcher.url).put('/api/v1/webhooks/settings').set(tenant).send({ url }).expect(200);
    const res = await request(dispatcher.url).post('/api/v1/webhooks/test').set(tenant).expect(202);
    return { tenantId, deliveryId: res.body.data.delivery_id as string };
  }

  /** A tenant whose endpoint answers with `reply`; returns it with a test ping already queued. */
  async function pingTo(reply: (index: number) => Reply) {
    const receiver = await startReceiver((_req, i) => reply(i));
    receivers.push(receiver);
    return { ...(await pingAt(`${receiver.url}/hook`)), receiver };
  }

  it('when the endpoint keeps failing, then 4 attempts 10 s (here 300 ms) apart, then failed in the monitor', async () => {
    const t = await pingTo(() => ({ status: 500, body: 'database down' }));
    const d = await settled(dispatcher.url, t.tenantId, t.deliveryId);
    expect(d.status).toBe('failed');
    expect(d.attempts.map((a) => [a.attempt, a.http_status, a.error])).toEqual(
      [1, 2, 3, 4].map((n) => [n, 500, 'http_error: HTTP 500']),
    );
    expect(d.attempts[0].response_excerpt).toBe('database down');
    const at = t.receiver.requests.map((r) => r.at);
    expect(at).toHaveLength(4);
    for (let i = 1; i < 4; i += 1) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(280);
    // The same bytes and id every time; timestamp and signature belong to each attempt.
    expect(new Set(t.receiver.requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(t.receiver.requests.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    const page = await monitor(dispatcher.url, t.tenantId, { status: 'failed' });
    expect(page.deliveries.map((x) => x.delivery_id)).toEqual([t.deliveryId]);
    expect(page.endpoint).toMatchObject({
      success_rate: 0,
      failed: 1,
      last_error: { delivery_id: t.deliveryId, http_status: 500, error: 'http_error: HTTP 500' },
    });
  });

  it('when the third attempt succeeds, then retries stop there', async () => {
    const t = await pingTo((i) => (i < 2 ? { status: 503 } : { status: 204 }));
    const d = await settled(dispatcher.url, t.tenantId, t.deliveryId);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.http_status)).toEqual([503, 503, 204]);
    expect(d.attempts[2]).toMatchObject({ error: null, duration_ms: expect.any(Number) });
    expect(t.receiver.requests).toHaveLength(3);
    const page = await monitor(dispatcher.url, t.tenantId, { status: 'delivered', event: 'webhook.test' });
    expect(page.endpoint).toMatchObject({ success_rate: 1, delivered: 1 });
  });

  it('when the endpoint does not answer in time, then the attempt is a timeout that took about the timeout', async () => {
    const t = await pingTo((i) => (i === 0 ? 'hang' : { status: 200 }));
    const d = await settled(dispatcher.url, t.tenantId, t.deliveryId);
    expect(d.status).toBe('delivered');
    expect(d.attempts[0]).toMatchObject({
      http_status: null,
      error: 'timeout: no complete answer within 1000 ms',
    });
    // The deadline is 10 s in production, 1 s here: the attempt lasted at least that long (the timer never fires
    // early), and well under the 10 s default, so the setting was applied; the 4 s between leave room for a
    // loaded machine. No speed is asserted.
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(990);
    expect(d.attempts[0].duration_ms).toBeLessThan(5_000);
    expect(d.attempts[1]).toMatchObject({ http_status: 200, error: null, duration_ms: expect.any(Number) });
  });

  it('when the endpoint refuses the connection, then the failed attempt still has its duration', async () => {
    const closed = await startReceiver();
    await closed.close();
    const { tenantId, deliveryId } = await pingAt(`${closed.url}/hook`);
    const d = await settled(dispatcher.url, tenantId, deliveryId);
    expect(d.status).toBe('failed');
    for (const a of d.attempts) {
      expect(a).toMatchObject({ http_status: null, error: expect.stringMatching(/^connection_refused: /) });
      expect(a.duration_ms).toEqual(expect.any(Number));
      expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('when the endpoint redirects, then the redirect is not followed and counts as a failure', async () => {
    const target = await startReceiver();
    receivers.push(target);
    const t = await pingTo(() => ({ status: 302, headers: { location: `${target.url}/elsewhere` } }));
    const d = await settled(dispatcher.url, t.tenantId, t.deliveryId);
    expect(d.status).toBe('failed');
    expect(d.attempts[0]).toMatchObject({ http_status: 302, error: 'redirect_not_followed: HTTP 302' });
    expect(target.connections).toBe(0);
  });

  it('when the endpoint asks for a longer Retry-After, then the next attempt waits for it', async () => {
    const t = await pingTo((i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await settled(dispatcher.url, t.tenantId, t.deliveryId);
    const [first, second] = t.receiver.requests.map((r) => r.at);
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  it('when a failed delivery is redelivered, then the same X-Webhook-Id arrives with a fresh timestamp', async () => {
    let healthy = false;
    const t = await pingTo(() => (healthy ? { status: 200 } : { status: 500 }));
    const failed = await settled(dispatcher.url, t.tenantId, t.deliveryId);
    expect(failed.status).toBe('failed');
    healthy = true;
    // The timestamp counts whole seconds: redeliver in a later second than the first try (the retries may all
    // fit in one), so that a fresh timestamp can show.
    const firstAt = Date.parse(String(t.receiver.requests[0].headers['x-webhook-timestamp']));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstAt + 1000 - Date.now())));
    const res = await request(dispatcher.url)
      .post(`/api/v1/webhooks/deliveries/${t.deliveryId}/redeliver`)
      .set(asTenant(t.tenantId));
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ delivery_id: expect.any(String), event_id: failed.event_id });
    const again = await settled(dispatcher.url, t.tenantId, res.body.data.delivery_id as string);
    expect(again.status).toBe('delivered');
    const [firstTry] = t.receiver.requests;
    const last = t.receiver.requests[t.receiver.requests.length - 1];
    expect(last.headers['x-webhook-id']).toBe(failed.event_id);
    expect(last.body).toBe(firstTry.body);
    expect(Date.parse(String(last.headers['x-webhook-timestamp']))).toBeGreaterThan(
      Date.parse(String(firstTry.headers['x-webhook-timestamp'])),
    );
  });

  it('when the delivery is unknown or another tenant’s, then 404 DELIVERY_NOT_FOUND', async () => {
    const t = await pingTo(() => ({ status: 200 }));
    for (const [tenantId, id] of [
      [newTenantId(), t.deliveryId],
      [t.tenantId, '01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      [t.tenantId, 'not-an-id'],
    ] as const) {
      const res = await request(dispatcher.url)
        .post(`/api/v1/webhooks/deliveries/${id}/redeliver`)
        .set(asTenant(tenantId));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('DELIVERY_NOT_FOUND');
    }
  });
});
