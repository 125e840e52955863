import request from 'supertest';
import type { DataSource } from 'typeorm';
import { ulid } from 'ulidx';
import type { AmqpClient } from '@bm/platform';
import { testEnv, waitFor } from '@bm/platform/testing';
import { loadDispatcherConfig } from '../src/config';
import { createDispatcherDataSource } from '../src/data-access/data-source';
import {
  asTenant,
  newTenantId,
  startDispatcher,
  startPublisher,
  type TestDispatcher,
} from './factories/dispatcher';
import { publish, statusUpdated } from './factories/events';
import { monitor, settled } from './factories/monitor';
import { startReceiver, type Receiver } from './factories/receiver';

/**
 * A delivery is written once and updated once per attempt (issue 36): its body, trace and attempts live in its
 * own row. The previous release's pods write an events row and attempt rows instead, and their deliveries still
 * go out and show whole during a rollout.
 */
describe('a webhook delivery written once', () => {
  let dispatcher: TestDispatcher;
  let publisher: AmqpClient;
  let receiver: Receiver;
  let db: DataSource;

  beforeAll(async () => {
    dispatcher = await startDispatcher();
    publisher = await startPublisher();
    receiver = await startReceiver();
    db = createDispatcherDataSource(loadDispatcherConfig(testEnv()));
    await db.initialize();
  });
  afterAll(async () => {
    await publisher.close();
    await dispatcher.stop();
    await receiver.close();
    await db.destroy();
  });

  async function tenantWithEndpoint() {
    const tenantId = newTenantId();
    const path = `/once/${tenantId}`;
    await request(dispatcher.url)
      .put('/api/v1/webhooks/settings')
      .set(asTenant(tenantId))
      .send({ url: `${receiver.url}${path}` })
      .expect(200);
    return { tenantId, path, received: () => receiver.requests.filter((r) => r.path === path) };
  }

  it('when an event is delivered, then its one row holds the body and the attempt, and no event or attempt row is written', async () => {
    const t = await tenantWithEndpoint();
    const event = statusUpdated(t.tenantId);
    await publish(publisher, 'message.status_updated', event);
    const [req] = await waitFor(() => t.received().length > 0 && t.received(), { what: 'the webhook' });
    const eventId = `evt_${event.event_id as string}`;
    const [delivery] = (await monitor(dispatcher.url, t.tenantId)).deliveries;
    await settled(dispatcher.url, t.tenantId, delivery.delivery_id);

    const rows = await db.query<Array<{ body: string; attempts: Array<Record<string, unknown>> }>>(
      `SELECT body, attempts FROM dispatcher.deliveries WHERE event_id = $1`,
      [eventId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].body).toBe(req.body);
    expect(rows[0].attempts).toEqual([
      expect.objectContaining({ attempt: 1, http_status: 200, error: null, url: `${receiver.url}${t.path}` }),
    ]);
    expect(await db.query(`SELECT 1 FROM dispatcher.events WHERE id = $1`, [eventId])).toEqual([]);
    expect(
      await db.query(`SELECT 1 FROM dispatcher.delivery_attempts WHERE delivery_id = $1`, [
        delivery.delivery_id,
      ]),
    ).toEqual([]);
    const [shown] = (await monitor(dispatcher.url, t.tenantId)).deliveries;
    expect(shown.attempts).toEqual([expect.objectContaining({ attempt: 1, http_status: 200, error: null })]);
  });

  it("given a delivery the previous release stored and attempted once, when this release's worker takes it, then it sends the stored body and the monitor shows both attempts", async () => {
    const t = await tenantWithEndpoint();
    const eventId = `evt_${ulid()}`;
    const deliveryId = ulid();
    const body = JSON.stringify({
      event: 'message.status_updated',
      event_id: eventId,
      data: { status: 'sent' },
    });
    // What a pod of the previous release does: the event in dispatcher.events, a delivery without a body (the
    // function of 1766740000000), and its first attempt as a row of delivery_attempts.
    await db.query(
      `SELECT * FROM dispatcher.store_and_lease(ARRAY[$1], ARRAY[$2::int], ARRAY['message.status_updated'],
         ARRAY[$3], ARRAY[$4], ARRAY[NULL::text], ARRAY[NULL::text], 0, 4, 30000, 'previous-release')`,
      [eventId, t.tenantId, body, deliveryId],
    );
    await db.query(
      `WITH a AS (
         INSERT INTO dispatcher.delivery_attempts
           (delivery_id, tenant_id, attempt, url, at, duration_ms, http_status, error, response_excerpt)
         VALUES ($1, $2, 1, $3, now() - interval '1 second', 12, 503, 'http_503', 'busy'))
       UPDATE dispatcher.deliveries SET attempt_count = 1, next_attempt_at = now() WHERE id = $1`,
      [deliveryId, t.tenantId, `${receiver.url}${t.path}`],
    );

    const [req] = await waitFor(() => t.received().length > 0 && t.received(), { what: 'the webhook' });
    expect(req.body).toBe(body);
    const done = await settled(dispatcher.url, t.tenantId, deliveryId);
    expect(done.status).toBe('delivered');
    expect(done.attempts).toEqual([
      expect.objectContaining({ attempt: 1, http_status: 503, error: expect.stringContaining('503') }),
      expect.objectContaining({ attempt: 2, http_status: 200, error: null }),
    ]);
    const [shown] = (await monitor(dispatcher.url, t.tenantId)).deliveries;
    expect((shown as unknown as { payload: unknown }).payload).toEqual(JSON.parse(body));
  });
});
