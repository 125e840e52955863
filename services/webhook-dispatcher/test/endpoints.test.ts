import request from 'supertest';
import type { AmqpClient } from '@bm/platform';
import { waitFor } from '@bm/platform/testing';
import {
  asTenant,
  newTenantId,
  startDispatcher,
  startPublisher,
  type TestDispatcher,
} from './factories/dispatcher';
import { campaignCompleted, publish, statusUpdated } from './factories/events';
import { monitor } from './factories/monitor';
import { signaturesOf, startReceiver, type Receiver } from './factories/receiver';

interface Endpoint {
  endpoint_id: string;
  url: string;
  events: string[] | null;
  description: string | null;
  enabled: boolean;
  default: boolean;
  secret_set: boolean;
  secret?: string;
}

describe('several webhook endpoints per tenant', () => {
  let dispatcher: TestDispatcher;
  let publisher: AmqpClient;
  let receiver: Receiver;

  beforeAll(async () => {
    dispatcher = await startDispatcher();
    publisher = await startPublisher();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await publisher.close();
    await dispatcher.stop();
    await receiver.close();
  });

  const api = () => request(dispatcher.url);
  const received = (path: string) => receiver.requests.filter((r) => r.path === path);

  /** Adds an endpoint on the receiver at its own path; answers it with its secret and its path. */
  async function addEndpoint(tenantId: number, body: Record<string, unknown> = {}) {
    const path = `/hooks/${tenantId}/${Math.random().toString(36).slice(2)}`;
    const res = await api()
      .post('/api/v1/webhooks/endpoints')
      .set(asTenant(tenantId))
      .send({ url: `${receiver.url}${path}`, ...body })
      .expect(201);
    return { ...(res.body.data as Endpoint & { secret: string }), path };
  }

  it('when two endpoints have different filters and secrets, then each gets exactly its events, signed with its own secret, and the monitor tells them apart', async () => {
    const tenantId = newTenantId();
    const statuses = await addEndpoint(tenantId, {
      events: ['message.status_updated'],
      description: 'CRM',
    });
    const campaigns = await addEndpoint(tenantId, { events: ['campaign.completed'] });
    const everything = await addEndpoint(tenantId, { events: [] });
    expect(statuses.secret).toMatch(/^whsec_/);
    expect(campaigns.secret).not.toBe(statuses.secret);
    expect(statuses).toMatchObject({ default: true, enabled: true, description: 'CRM', secret_set: true });
    expect(everything).toMatchObject({ default: false, events: null });

    // The settings endpoint is the first (default) one, and the list shows all three, the default first.
    const settings = await api().get('/api/v1/webhooks/settings').set(asTenant(tenantId)).expect(200);
    expect(settings.body.data).toEqual({
      url: `${receiver.url}${statuses.path}`,
      events: ['message.status_updated'],
      secret_set: true,
    });
    const list = await api().get('/api/v1/webhooks/endpoints').set(asTenant(tenantId)).expect(200);
    expect(list.body.data.max_endpoints).toBe(10);
    expect((list.body.data.endpoints as Endpoint[]).map((e) => e.endpoint_id)).toEqual([
      statuses.endpoint_id,
      campaigns.endpoint_id,
      everything.endpoint_id,
    ]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const status = statusUpdated(tenantId, { campaign_id: '01JCAMPAIGN0000000000000000' });
    const campaign = campaignCompleted(tenantId);
    await publish(publisher, 'message.status_updated', status);
    await publish(publisher, 'campaign.completed', campaign);
    await waitFor(() => received(everything.path).length === 2, {
      what: 'both events to the third endpoint',
    });
    await waitFor(() => received(statuses.path).length > 0 && received(campaigns.path).length > 0, {
      what: 'the filtered endpoints',
    });

    const [toStatuses] = received(statuses.path);
    const [toCampaigns] = received(campaigns.path);
    expect(received(statuses.path)).toHaveLength(1);
    expect(received(campaigns.path)).toHaveLength(1);
    expect(toStatuses.headers['x-webhook-id']).toBe(`evt_${status.event_id as string}`);
    expect(toCampaigns.headers['x-webhook-id']).toBe(`evt_${campaign.event_id as string}`);
    expect(toStatuses.headers['x-webhook-signature']).toBe(signaturesOf(toStatuses, statuses.secret));
    expect(toCampaigns.headers['x-webhook-signature']).toBe(signaturesOf(toCampaigns, campaigns.secret));
    // The same event to two endpoints: the same id and bytes, each signed with its endpoint's secret.
    const sameEvent = received(everything.path).find(
      (r) => r.headers['x-webhook-id'] === toStatuses.headers['x-webhook-id'],
    )!;
    expect(sameEvent.body).toBe(toStatuses.body);
    expect(sameEvent.headers['x-webhook-signature']).toBe(signaturesOf(sameEvent, everything.secret));

    // The monitor: one delivery per endpoint, with its endpoint, URL, payload and what the event names.
    const all = await waitFor(
      async () => {
        const page = await monitor(dispatcher.url, tenantId);
        return page.deliveries.every((d) => d.status === 'delivered') && page.deliveries.length === 4 && page;
      },
      { what: 'four deliveries delivered' },
    );
    expect(all.pagination.total).toBe(4);
    const onlyStatuses = await monitor(dispatcher.url, tenantId, { endpoint_id: statuses.endpoint_id });
    expect(onlyStatuses.deliveries).toHaveLength(1);
    expect(onlyStatuses.endpoint).toMatchObject({ url: `${receiver.url}${statuses.path}`, delivered: 1 });
    expect(onlyStatuses.deliveries[0]).toMatchObject({
      event_id: `evt_${status.event_id as string}`,
      endpoint_id: statuses.endpoint_id,
      url: `${receiver.url}${statuses.path}`,
      payload: JSON.parse(toStatuses.body) as Record<string, unknown>,
      message_id: status.message_log_id,
      campaign_id: '01JCAMPAIGN0000000000000000',
    });
    const onlyCampaigns = await monitor(dispatcher.url, tenantId, { endpoint_id: campaigns.endpoint_id });
    expect(onlyCampaigns.deliveries[0]).toMatchObject({
      event: 'campaign.completed',
      message_id: null,
      campaign_id: campaign.campaign_id,
    });
  });

  it('when an endpoint is disabled or deleted, then it gets no more events while the others still do', async () => {
    const tenantId = newTenantId();
    const disabled = await addEndpoint(tenantId);
    const deleted = await addEndpoint(tenantId);
    const kept = await addEndpoint(tenantId);
    const patched = await api()
      .patch(`/api/v1/webhooks/endpoints/${disabled.endpoint_id}`)
      .set(asTenant(tenantId))
      .send({ enabled: false })
      .expect(200);
    expect(patched.body.data).toMatchObject({ enabled: false, default: true });
    await api()
      .delete(`/api/v1/webhooks/endpoints/${deleted.endpoint_id}`)
      .set(asTenant(tenantId))
      .expect(200, { success: true, data: { endpoint_id: deleted.endpoint_id, deleted: true } });

    await publish(publisher, 'message.status_updated', statusUpdated(tenantId));
    await waitFor(() => received(kept.path).length === 1, { what: 'the kept endpoint' });
    // Enabled again, it takes the next event: the first one was not held back for it.
    await api()
      .patch(`/api/v1/webhooks/endpoints/${disabled.endpoint_id}`)
      .set(asTenant(tenantId))
      .send({ enabled: true, events: ['campaign.completed'] })
      .expect(200);
    await publish(publisher, 'campaign.completed', campaignCompleted(tenantId));
    await waitFor(() => received(disabled.path).length === 1, { what: 'the endpoint enabled again' });
    await waitFor(() => received(kept.path).length === 2, { what: 'the kept endpoint, twice' });
    expect(received(disabled.path)[0].body).toContain('"campaign.completed"');
    expect(received(deleted.path)).toHaveLength(0);
    const listed = await api().get('/api/v1/webhooks/endpoints').set(asTenant(tenantId));
    const ids = (listed.body.data.endpoints as Endpoint[]).map((e) => e.endpoint_id);
    expect(ids).toEqual([disabled.endpoint_id, kept.endpoint_id]);
  });

  it('when an endpoint is disabled while a delivery waits for its retry, then that delivery fails without another request', async () => {
    // Retry-After holds the retry 2 s (the test cap), however slow the machine is before the endpoint is disabled.
    const failing = await startReceiver(() => ({ status: 500, headers: { 'retry-after': '2' } }));
    try {
      const tenantId = newTenantId();
      const e = await api()
        .post('/api/v1/webhooks/endpoints')
        .set(asTenant(tenantId))
        .send({ url: `${failing.url}/down` })
        .expect(201);
      const id = e.body.data.endpoint_id as string;
      await publish(publisher, 'message.status_updated', statusUpdated(tenantId));
      await waitFor(() => failing.requests.length === 1, { what: 'the first attempt' });
      await api()
        .patch(`/api/v1/webhooks/endpoints/${id}`)
        .set(asTenant(tenantId))
        .send({ enabled: false })
        .expect(200);
      const d = await waitFor(
        async () => {
          const [one] = (await monitor(dispatcher.url, tenantId, { endpoint_id: id })).deliveries;
          return one?.status === 'failed' && one;
        },
        { what: 'the delivery failed' },
      );
      expect(failing.requests).toHaveLength(1);
      expect(d.attempts.map((a) => a.error)).toEqual([
        'http_error: HTTP 500',
        'no_endpoint: the endpoint was removed or disabled, or has no URL',
      ]);
    } finally {
      await failing.close();
    }
  });

  it('when one of a tenant’s endpoints hangs, then its other endpoint still gets every event at once', async () => {
    // Another origin: the sender keeps a connection pool per origin, which a hanging path would fill.
    const stuckReceiver = await startReceiver(() => 'hang');
    try {
      const tenantId = newTenantId();
      const stuck = await api()
        .post('/api/v1/webhooks/endpoints')
        .set(asTenant(tenantId))
        .send({ url: `${stuckReceiver.url}/stuck` })
        .expect(201);
      expect(stuck.body.data.default).toBe(true);
      const healthy = await addEndpoint(tenantId);
      for (let i = 0; i < 6; i += 1)
        await publish(publisher, 'message.status_updated', statusUpdated(tenantId));
      await waitFor(() => received(healthy.path).length === 6, { what: 'all six to the healthy endpoint' });
      // Meanwhile the hanging endpoint holds its own slots (at most 4), not the tenant's.
      expect(stuckReceiver.held.length).toBeGreaterThan(0);
      expect(stuckReceiver.maxOpen).toBeLessThanOrEqual(4);
    } finally {
      await stuckReceiver.close();
    }
  });

  it('when the settings are used, then they are the default endpoint, and removing it makes the next one the default', async () => {
    const tenantId = newTenantId();
    await api()
      .put('/api/v1/webhooks/settings')
      .set(asTenant(tenantId))
      .send({ url: `${receiver.url}/settings/${tenantId}` })
      .expect(200);
    const [first] = (await api().get('/api/v1/webhooks/endpoints').set(asTenant(tenantId))).body.data
      .endpoints as Endpoint[];
    expect(first).toMatchObject({
      url: `${receiver.url}/settings/${tenantId}`,
      default: true,
      secret_set: false,
    });
    const second = await addEndpoint(tenantId);
    expect(second.default).toBe(false);
    // POST /webhooks/test goes to the default endpoint only.
    await api().post('/api/v1/webhooks/test').set(asTenant(tenantId)).expect(202);
    await waitFor(() => received(`/settings/${tenantId}`).length === 1, { what: 'the test ping' });
    const rotated = await api()
      .post(`/api/v1/webhooks/endpoints/${second.endpoint_id}/secret`)
      .set(asTenant(tenantId))
      .expect(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    await api()
      .post(`/api/v1/webhooks/endpoints/${second.endpoint_id}/test`)
      .set(asTenant(tenantId))
      .expect(202);
    const [ping] = await waitFor(() => received(second.path).length === 1 && received(second.path), {
      what: 'the endpoint test',
    });
    // Both secrets sign during the grace period, the new one first.
    expect(ping.headers['x-webhook-signature']).toBe(
      signaturesOf(ping, rotated.body.data.secret as string, second.secret),
    );
    expect(received(`/settings/${tenantId}`)).toHaveLength(1);

    await api().delete(`/api/v1/webhooks/endpoints/${first.endpoint_id}`).set(asTenant(tenantId)).expect(200);
    const settings = await api().get('/api/v1/webhooks/settings').set(asTenant(tenantId)).expect(200);
    expect(settings.body.data).toEqual({
      url: `${receiver.url}${second.path}`,
      events: null,
      secret_set: true,
    });
  });

  it('when another tenant names an endpoint, then it is not found, and the cap and URL rules hold', async () => {
    const owner = newTenantId();
    const other = newTenantId();
    const e = await addEndpoint(owner);
    const base = `/api/v1/webhooks/endpoints/${e.endpoint_id}`;
    const notFound = { error: { code: 'WEBHOOK_ENDPOINT_NOT_FOUND' } };
    expect(
      (await api().patch(base).set(asTenant(other)).send({ enabled: false }).expect(404)).body,
    ).toMatchObject(notFound);
    await api().delete(base).set(asTenant(other)).expect(404);
    await api().post(`${base}/secret`).set(asTenant(other)).expect(404);
    await api().post(`${base}/test`).set(asTenant(other)).expect(404);
    await api().delete('/api/v1/webhooks/endpoints/not-an-id').set(asTenant(owner)).expect(404);
    expect((await api().get('/api/v1/webhooks/endpoints').set(asTenant(other))).body.data.endpoints).toEqual(
      [],
    );
    expect((await monitor(dispatcher.url, other, { endpoint_id: e.endpoint_id })).endpoint.url).toBeNull();
    const still = await api().get('/api/v1/webhooks/endpoints').set(asTenant(owner));
    expect(still.body.data.endpoints[0]).toMatchObject({ endpoint_id: e.endpoint_id, enabled: true });

    const refused = await api()
      .post('/api/v1/webhooks/endpoints')
      .set(asTenant(owner))
      .send({ url: 'http://10.0.0.1/hook' })
      .expect(422);
    expect(refused.body.error.details.errors[0].field).toBe('url');
    await api()
      .post('/api/v1/webhooks/endpoints')
      .set(asTenant(owner))
      .send({ url: `${receiver.url}/x`, events: ['no.such_event'] })
      .expect(422);
    await Promise.all(Array.from({ length: 9 }, () => addEndpoint(owner)));
    const full = await api()
      .post('/api/v1/webhooks/endpoints')
      .set(asTenant(owner))
      .send({ url: `${receiver.url}/eleventh` })
      .expect(409);
    expect(full.body.error.code).toBe('WEBHOOK_ENDPOINT_LIMIT_REACHED');
  });
});
