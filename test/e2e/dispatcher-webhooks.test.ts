import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { parseTraceparent } from '@bm/platform';
import { waitFor } from '@bm/platform/testing';
import {
  signaturesOf,
  startReceiver,
  type Receiver,
} from '../../services/webhook-dispatcher/test/factories/receiver';
import { startDispatcherStack, type DispatcherStack } from '../support/dispatcher';
import { createTenant, randomPhone, type TenantFixture } from '../support/stack';

describe('outbound webhooks end to end', () => {
  let env: DispatcherStack;
  let t: TenantFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    env = await startDispatcherStack();
    t = await createTenant(env.stack);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await env.stop();
    await receiver.close();
  });

  it('when a template is sent through the gateway, then the client receives a signed message.status_updated (sent)', async () => {
    const api = () => request(env.gatewayUrl);
    const secret = (await api().post('/api/v1/webhooks/settings/secret').set(t.auth).expect(200)).body.data
      .secret as string;
    const settings = await api()
      .put('/api/v1/webhooks/settings')
      .set(t.auth)
      .send({ url: `${receiver.url}/webhooks`, events: ['message.status_updated'] })
      .expect(200);
    expect(settings.body.data).toEqual({
      url: `${receiver.url}/webhooks`,
      events: ['message.status_updated'],
      secret_set: true,
    });

    const phone = randomPhone();
    const traceId = randomBytes(16).toString('hex');
    const sent = await api()
      .post('/api/v1/messages/send')
      .set({ ...t.auth, traceparent: `00-${traceId}-00f067aa0ba902b7-01` })
      .send({
        channel_account_id: t.channelAccountId,
        phone: `+${phone}`,
        message_type: 'template',
        data: { name: 'hello_world' },
      })
      .expect(202);
    const messageLogId = sent.body.data.message_log_id as number;

    const req = await waitFor(
      () => receiver.requests.find((r) => r.body.includes(`"message_log_id":${messageLogId}`)),
      { what: 'message.status_updated webhook', timeoutMs: 20_000 },
    );
    expect(req.headers['x-webhook-signature']).toBe(signaturesOf(req, secret));
    expect(req.headers['user-agent']).toBe('BusinessMessaging-Webhook/1.0');
    expect(req.headers['x-webhook-id']).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    // The webhook continues the client's trace: gateway, messaging, the broker, the dispatcher, the receiver.
    expect(parseTraceparent(req.headers.traceparent)?.traceId).toBe(traceId);
    expect(JSON.parse(req.body)).toEqual({
      event: 'message.status_updated',
      tenant_id: t.tenantId,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      message_log_id: messageLogId,
      status: 'sent',
      to_phone: phone,
      provider_message_id: expect.any(String),
      error_message: null,
      campaign_id: null,
    });

    const monitor = await waitFor(
      async () => {
        const res = await api().get('/api/v1/webhooks/deliveries').query({ status: 'delivered' }).set(t.auth);
        const data = res.body.data as { deliveries: Array<Record<string, unknown>> };
        return data.deliveries.length > 0 && data;
      },
      { what: 'delivery recorded' },
    );
    expect(monitor.deliveries[0]).toMatchObject({
      event_id: req.headers['x-webhook-id'],
      event: 'message.status_updated',
      attempts: [{ attempt: 1, http_status: 200, error: null }],
      url: `${receiver.url}/webhooks`,
      payload: JSON.parse(req.body) as Record<string, unknown>,
      message_id: messageLogId,
      campaign_id: null,
    });
  });

  it('when a second endpoint is managed through the gateway, then each answer is the documented one and its test ping reaches it', async () => {
    const api = () => request(env.gatewayUrl);
    const added = await api()
      .post('/api/v1/webhooks/endpoints')
      .set(t.auth)
      .send({ url: `${receiver.url}/second`, events: ['campaign.completed'], description: 'Second' })
      .expect(201);
    const id = added.body.data.endpoint_id as string;
    expect(added.body.data).toMatchObject({ default: false, secret: expect.stringMatching(/^whsec_/) });
    const listed = await api().get('/api/v1/webhooks/endpoints').set(t.auth).expect(200);
    expect(listed.body.data.endpoints).toHaveLength(2);
    await api().patch(`/api/v1/webhooks/endpoints/${id}`).set(t.auth).send({ enabled: false }).expect(200);
    await api().post(`/api/v1/webhooks/endpoints/${id}/test`).set(t.auth).expect(422);
    await api().patch(`/api/v1/webhooks/endpoints/${id}`).set(t.auth).send({ enabled: true }).expect(200);
    const secret = (await api().post(`/api/v1/webhooks/endpoints/${id}/secret`).set(t.auth).expect(200)).body
      .data.secret as string;
    await api().post(`/api/v1/webhooks/endpoints/${id}/test`).set(t.auth).expect(202);
    const ping = await waitFor(() => receiver.requests.find((r) => r.path === '/second'), {
      what: 'the test ping at the second endpoint',
    });
    expect(ping.headers['x-webhook-signature']).toBe(
      signaturesOf(ping, secret, added.body.data.secret as string),
    );
    const monitor = await api()
      .get('/api/v1/webhooks/deliveries')
      .query({ endpoint_id: id })
      .set(t.auth)
      .expect(200);
    const deliveries = monitor.body.data.deliveries as Array<{ event: string }>;
    expect(deliveries.map((d) => d.event)).toEqual(['webhook.test']);
    await api().delete(`/api/v1/webhooks/endpoints/${id}`).set(t.auth).expect(200);
    await api().delete(`/api/v1/webhooks/endpoints/${id}`).set(t.auth).expect(404);
  });
});
