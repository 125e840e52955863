import request from 'supertest';
import type { DataSource } from 'typeorm';
import { testEnv, waitFor } from '@bm/platform/testing';
import { loadDispatcherConfig } from '../src/config';
import { createDispatcherDataSource } from '../src/data-access/data-source';
import { purgeOldDeliveries } from '../src/domain/purge-old-deliveries.use-case';
import { asTenant, newTenantId, startDispatcher, type TestDispatcher } from './factories/dispatcher';
import { monitor, settled } from './factories/monitor';
import { startReceiver, type Receiver } from './factories/receiver';

describe('retention of the delivery log', () => {
  let dispatcher: TestDispatcher;
  let receiver: Receiver;
  let db: DataSource;

  beforeAll(async () => {
    dispatcher = await startDispatcher();
    receiver = await startReceiver((req) => (req.path === '/hang' ? 'hang' : { status: 200 }));
    db = createDispatcherDataSource(loadDispatcherConfig(testEnv()));
    await db.initialize();
  });
  afterAll(async () => {
    await dispatcher.stop();
    await receiver.close();
    await db.destroy();
  });

  async function ping(path: string) {
    const tenantId = newTenantId();
    const tenant = asTenant(tenantId);
    await request(dispatcher.url)
      .put('/api/v1/webhooks/settings')
      .set(tenant)
      .send({ url: `${receiver.url}${path}` })
      .expect(200);
    const res = await request(dispatcher.url).post('/api/v1/webhooks/test').set(tenant).expect(202);
    return { tenantId, deliveryId: res.body.data.delivery_id as string };
  }

  it('when a finished delivery is older than the retention, then it goes with its attempts and event; a pending one stays', async () => {
    const old = await ping('/ok');
    await settled(dispatcher.url, old.tenantId, old.deliveryId);
    const waiting = await ping('/hang');
    await waitFor(() => receiver.held.length > 0, { what: 'held' });
    // Both made to look 31 days old; only the finished one is past keeping.
    await db.query(
      `UPDATE dispatcher.deliveries SET created_at = now() - interval '31 days' WHERE id = ANY($1)`,
      [[old.deliveryId, waiting.deliveryId]],
    );

    expect(await purgeOldDeliveries(dispatcher.service.deps)).toBeGreaterThanOrEqual(1);

    expect((await monitor(dispatcher.url, old.tenantId)).deliveries).toEqual([]);
    const events = await db.query(`SELECT 1 FROM dispatcher.events WHERE tenant_id = $1`, [old.tenantId]);
    expect(events).toHaveLength(0);
    const kept = (await monitor(dispatcher.url, waiting.tenantId)).deliveries;
    expect(kept.map((d) => [d.delivery_id, d.status])).toEqual([[waiting.deliveryId, 'pending']]);
  });
});
