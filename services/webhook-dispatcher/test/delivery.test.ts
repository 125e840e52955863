import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { parseTraceparent, type AmqpClient } from '@bm/platform';
import { waitFor } from '@bm/platform/testing';
import {
  asTenant,
  newTenantId,
  startDispatcher,
  startPublisher,
  type TestDispatcher,
} from './factories/dispatcher';
import { campaignCompleted, publish, statusesBatch, statusUpdated } from './factories/events';
import { monitor } from './factories/monitor';
import { signaturesOf, startReceiver, type Receiver } from './factories/receiver';

describe('delivering domain events as signed webhooks', () => {
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

  /** A tenant with an endpoint on the receiver (its own path) and, unless told otherwise, a secret. */
  async function tenantWithEndpoint(events: string[] | null = null, withSecret = true) {
    const tenantId = newTenantId();
    const path = `/hooks/${tenantId}`;
    await request(dispatcher.url)
      .put('/api/v1/webhooks/settings')
      .set(asTenant(tenantId))
      .send({ url: `${receiver.url}${path}`, events })
      .expect(200);
    const secret = withSecret
      ? ((await request(dispatcher.url).post('/api/v1/webhooks/settings/secret').set(asTenant(tenantId))).body
          .data.secret as string)
      : '';
    const received = () => receiver.requests.filter((r) => r.path === path);
    return { tenantId, secret, path, received };
  }

  it('when a status change is published, then the receiver gets the published body and headers, signed', async () => {
    const t = await tenantWithEndpoint();
    const event = statusUpdated(t.tenantId, { campaign_id: '01JCAMPAIGN0000000000000000' });
    await publish(publisher, 'message.status_updated', event);

    const [req] = await waitFor(() => t.received().length > 0 && t.received(), { what: 'delivery' });
    expect(req.method).toBe('POST');
    expect(req.headers).toMatchObject({
      'user-agent': 'BusinessMessaging-Webhook/1.0',
      'content-type': 'application/json',
      accept: 'application/json',
      'x-webhook-id': `evt_${event.event_id as string}`,
    });
    expect(req.headers['x-webhook-timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(req.headers['x-webhook-signature']).toBe(signaturesOf(req, t.secret));
    const body = JSON.parse(req.body) as Record<string, unknown>;
    expect(Object.keys(body).slice(0, 3)).toEqual(['event', 'tenant_id', 'timestamp']);
    expect(body).toEqual({
      event: 'message.status_updated',
      tenant_id: t.tenantId,
      timestamp: (event.occurred_at as string).replace(/\.\d{3}Z$/, '+00:00'),
      message_log_id: event.message_log_id,
      status: 'sent',
      to_phone: '14155550123',
      provider_message_id: event.provider_message_id,
      error_message: null,
      campaign_id: '01JCAMPAIGN0000000000000000',
    });
  });

  it('when no secret is set, then the delivery carries no X-Webhook-Signature', async () => {
    const t = await tenantWithEndpoint(null, false);
    await request(dispatcher.url).post('/api/v1/webhooks/test').set(asTenant(t.tenantId)).expect(202);
    const [req] = await waitFor(() => t.received().length > 0 && t.received(), { what: 'test ping' });
    expect(req.headers['x-webhook-signature']).toBeUndefined();
    expect(JSON.parse(req.body)).toEqual({
      event: 'webhook.test',
      tenant_id: t.tenantId,
      timestamp: expect.stringMatching(/\+00:00$/),
      message: expect.any(String),
    });
  });

  it('when RabbitMQ delivers the same domain event twice, then one webhook event and one delivery result', async () => {
    const t = await tenantWithEndpoint();
    const event = statusUpdated(t.tenantId);
    for (let i = 0; i < 3; i += 1) await publish(publisher, 'message.status_updated', event);
    const marker = statusUpdated(t.tenantId, { status: 'delivered' });
    await publish(publisher, 'message.status_updated', marker);
    const ids = () => t.received().map((r) => r.headers['x-webhook-id']);
    await waitFor(
      () =>
        ids().includes(`evt_${event.event_id as string}`) &&
        ids().includes(`evt_${marker.event_id as string}`),
      { what: 'the event and a later marker' },
    );
    expect((await monitor(dispatcher.url, t.tenantId)).pagination.total).toBe(2);
    expect(
      t.received().filter((r) => r.headers['x-webhook-id'] === `evt_${event.event_id as string}`),
    ).toHaveLength(1);
  });

  it('when status events come in one batch message (message.statuses_updated), then each becomes its own webhook in the trace of its send, and the batch delivered again adds none', async () => {
    const [a, b] = [await tenantWithEndpoint(), await tenantWithEndpoint()];
    const traceIds = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    const events = [statusUpdated(a.tenantId), statusUpdated(b.tenantId, { status: 'delivered' })];
    const batch = statusesBatch(
      events.map((event, i) => ({ event, traceparent: `00-${traceIds[i]}-00f067aa0ba902b7-01` })),
    );
    for (let i = 0; i < 2; i += 1) await publish(publisher, 'message.statuses_updated', batch);
    const marker = statusesBatch([
      { event: statusUpdated(a.tenantId, { status: 'read' }), traceparent: null },
    ]);
    await publish(publisher, 'message.statuses_updated', marker);

    await waitFor(() => a.received().length === 2 && b.received().length === 1, { what: 'three webhooks' });
    const [first, read] = a.received();
    expect(first.headers['x-webhook-id']).toBe(`evt_${events[0].event_id as string}`);
    expect(parseTraceparent(first.headers.traceparent)?.traceId).toBe(traceIds[0]);
    expect(JSON.parse(read.body)).toMatchObject({ event: 'message.status_updated', status: 'read' });
    const [second] = b.received();
    expect(second.headers['x-webhook-id']).toBe(`evt_${events[1].event_id as string}`);
    expect(parseTraceparent(second.headers.traceparent)?.traceId).toBe(traceIds[1]);
    expect(JSON.parse(second.body)).toMatchObject({ tenant_id: b.tenantId, status: 'delivered' });
    expect((await monitor(dispatcher.url, a.tenantId)).pagination.total).toBe(2);
    expect((await monitor(dispatcher.url, b.tenantId)).pagination.total).toBe(1);
  });

  it('when one event of a batch is invalid, then the others are delivered all the same', async () => {
    const t = await tenantWithEndpoint();
    const good = statusUpdated(t.tenantId);
    const bad = { ...statusUpdated(t.tenantId), message_log_id: 'not a number' };
    await publish(
      publisher,
      'message.statuses_updated',
      statusesBatch([
        { event: bad, traceparent: null },
        { event: good, traceparent: null },
      ]),
    );
    const [req] = await waitFor(() => t.received().length > 0 && t.received(), { what: 'the valid event' });
    expect(req.headers['x-webhook-id']).toBe(`evt_${good.event_id as string}`);
  });

  it('when a status is not a published one (queued), then nothing is sent', async () => {
    const t = await tenantWithEndpoint();
    await publish(publisher, 'message.status_updated', statusUpdated(t.tenantId, { status: 'queued' }));
    const marker = campaignCompleted(t.tenantId);
    await publish(publisher, 'campaign.completed', marker);
    await waitFor(() => t.received().length > 0, { what: 'marker' });
    const page = await monitor(dispatcher.url, t.tenantId);
    expect(page.deliveries.map((d) => d.event)).toEqual(['campaign.completed']);
  });

  it('when the tenant filters events, then only those go, and webhook.test always goes', async () => {
    const t = await tenantWithEndpoint(['campaign.completed']);
    await publish(publisher, 'message.status_updated', statusUpdated(t.tenantId));
    const campaign = campaignCompleted(t.tenantId);
    await publish(publisher, 'campaign.completed', campaign);
    await request(dispatcher.url).post('/api/v1/webhooks/test').set(asTenant(t.tenantId)).expect(202);
    await waitFor(() => t.received().length >= 2, { what: 'campaign event and test ping' });
    const events = t.received().map((r) => (JSON.parse(r.body) as { event: string }).event);
    expect(events.sort()).toEqual(['campaign.completed', 'webhook.test']);
    expect(JSON.parse(t.received().find((r) => r.body.includes('campaign.completed'))!.body)).toMatchObject({
      campaign_id: campaign.campaign_id,
      name: 'Spring sale',
      status: 'completed',
      total_count: 3,
      sent_count: 2,
      failed_count: 1,
    });
  });

  it('when the secret is rotated, then both signatures go during the grace period, the new one first', async () => {
    const t = await tenantWithEndpoint();
    const rotated = await request(dispatcher.url)
      .post('/api/v1/webhooks/settings/secret')
      .set(asTenant(t.tenantId));
    const next = rotated.body.data.secret as string;
    await request(dispatcher.url).post('/api/v1/webhooks/test').set(asTenant(t.tenantId)).expect(202);
    const [req] = await waitFor(() => t.received().length > 0 && t.received(), { what: 'test ping' });
    const header = String(req.headers['x-webhook-signature']);
    expect(header).toBe(signaturesOf(req, next, t.secret));
    expect(header.split(' ')).toHaveLength(2);
  });

  it('when the grace period is over, then only the new secret signs', async () => {
    const t = await tenantWithEndpoint();
    // The grace is fixed at rotation, so an API-only instance without one stands in for a day passing.
    const noGrace = await startDispatcher({ DISPATCHER_SECRET_GRACE_MS: '0' }, { workers: false });
    const rotated = await request(noGrace.url)
      .post('/api/v1/webhooks/settings/secret')
      .set(asTenant(t.tenantId));
    await noGrace.stop();
    await request(dispatcher.url).post('/api/v1/webhooks/test').set(asTenant(t.tenantId)).expect(202);
    const [req] = await waitFor(() => t.received().length > 0 && t.received(), { what: 'test ping' });
    expect(req.headers['x-webhook-signature']).toBe(signaturesOf(req, rotated.body.data.secret as string));
  });
});
