import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import {
  asTenant,
  isolatedWorld,
  newTenantId,
  startDispatcher,
  type IsolatedWorld,
  type TestDispatcher,
} from './factories/dispatcher';
import { monitor, settled } from './factories/monitor';
import { startReceiver, type Reply, type Receiver } from './factories/receiver';

// Its own database and queue: these tests count what is in flight and kill instances, so they must know every
// dispatcher that could take a delivery.
describe('endpoint isolation and dispatchers stopping mid-delivery', () => {
  let world: IsolatedWorld;
  const receivers: Receiver[] = [];
  const dispatchers: TestDispatcher[] = [];

  beforeAll(async () => {
    world = await isolatedWorld();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(() => world.drop());

  const start = async (overrides: Record<string, string> = {}) => {
    const d = await startDispatcher({ ...world.env, ...overrides });
    dispatchers.push(d);
    return d;
  };
  async function endpoint(d: TestDispatcher, reply: (i: number) => Reply) {
    const receiver = await startReceiver((_r, i) => reply(i));
    receivers.push(receiver);
    const tenantId = newTenantId();
    await request(d.url)
      .put('/api/v1/webhooks/settings')
      .set(asTenant(tenantId))
      .send({ url: `${receiver.url}/hook` })
      .expect(200);
    const ping = async () =>
      (await request(d.url).post('/api/v1/webhooks/test').set(asTenant(tenantId)).expect(202)).body.data
        .delivery_id as string;
    return { tenantId, receiver, ping };
  }

  it('when tenant A’s endpoint hangs, then at most the endpoint limit waits on it and tenant B is not delayed', async () => {
    const d = await start();
    const a = await endpoint(d, () => 'hang');
    const b = await endpoint(d, () => ({ status: 200 }));
    for (let i = 0; i < 10; i += 1) await a.ping();
    await waitFor(() => a.receiver.held.length >= 4, { what: 'A saturated' });
    for (let i = 0; i < 5; i += 1) await b.ping();
    await waitFor(() => b.receiver.requests.length === 5, { what: 'B delivered' });
    // B went through while A's backlog still waited for its endpoint's slots.
    const aPending = (await monitor(d.url, a.tenantId)).deliveries.filter((x) => x.attempts.length === 0);
    expect(aPending.length).toBeGreaterThan(0);
    expect(a.receiver.maxOpen).toBe(4);
  });

  /** Two dispatchers, a delivery held by the receiver, and the dispatcher that is making that attempt. */
  async function heldDelivery(overrides: Record<string, string> = {}) {
    const both = [await start(overrides), await start(overrides)];
    const e = await endpoint(both[0], (i) => (i === 0 ? 'hang' : { status: 200 }));
    const deliveryId = await e.ping();
    await waitFor(() => e.receiver.held.length === 1, { what: 'request held' });
    const holder = both.find((d) => d.service.worker.inFlight().includes(deliveryId))!;
    const other = both.find((d) => d !== holder)!;
    return { e, deliveryId, holder, other };
  }

  it('when a dispatcher is stopped mid-delivery, then another one delivers the same X-Webhook-Id at once', async () => {
    // A 10 s deadline (lease 10.5 s): the held attempt cannot time out before the stop, and waiting out the lease
    // is far from giving the delivery back, however loaded the machine.
    const { e, deliveryId, holder, other } = await heldDelivery({ DISPATCHER_TIMEOUT_MS: '10000' });
    await holder.stop();
    const d = await settled(other.url, e.tenantId, deliveryId);
    expect(d.status).toBe('delivered');
    const [held, redone] = e.receiver.requests;
    expect(redone.headers['x-webhook-id']).toBe(held.headers['x-webhook-id']);
    expect(redone.body).toBe(held.body);
    // The interrupted attempt was given back, not counted, and taken long before its lease (10.5 s) expired.
    expect(d.attempts.map((x) => [x.attempt, x.http_status])).toEqual([[1, 200]]);
    expect(redone.at - held.at).toBeLessThan(5_000);
  });

  it('when a dispatcher dies mid-delivery, then another one delivers the same X-Webhook-Id once the lease expires', async () => {
    const { e, deliveryId, holder, other } = await heldDelivery();
    await holder.crash();
    const d = await settled(other.url, e.tenantId, deliveryId);
    expect(d.status).toBe('delivered');
    const [held, redone] = e.receiver.requests;
    expect(redone.headers['x-webhook-id']).toBe(held.headers['x-webhook-id']);
    expect(redone.at - held.at).toBeGreaterThanOrEqual(1_400);
    expect(e.receiver.requests).toHaveLength(2);
  });
});
