import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { collectEvents } from '../support/events';
import { startIngress, type IngressFixture } from '../support/ingress';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('customer messages through real signed webhooks: sandbox -> webhook-ingress -> messaging', () => {
  let stack: Stack;
  let ingress: IngressFixture;
  let t: TenantFixture;
  let events: Awaited<ReturnType<typeof collectEvents>>;

  beforeAll(async () => {
    stack = await startStack();
    ingress = await startIngress(stack);
    t = await createTenant(stack);
    events = await collectEvents(stack, ['message.received']);
  });
  afterAll(async () => {
    await ingress.stop();
    await stack.stop();
  });

  it('when a customer writes, then the service window opens for a text and the tenant gets a live-chat request', async () => {
    const phone = randomPhone();
    const inbound = await request(stack.sandboxUrl)
      .post('/_sandbox/inbound')
      .send({
        phone_number_id: t.phoneNumberId,
        from: phone,
        text: 'Hola, ¿dónde está mi pedido? 📦',
        name: 'Ana',
      })
      .expect(200);
    expect(inbound.body.delivered).toBe(true);
    const received = await waitFor(() => events.find((e) => e.payload.from === phone), {
      what: 'message.received',
    });
    expect(received.payload).toMatchObject({
      tenant_id: t.tenantId,
      channel_account_id: t.channelAccountId,
      message_id: inbound.body.id,
      text: 'Hola, ¿dónde está mi pedido? 📦',
      name: 'Ana',
    });

    const res = await request(stack.gatewayUrl)
      .post('/api/v1/messages/send')
      .set(t.auth)
      .send({
        channel_account_id: t.channelAccountId,
        phone,
        message_type: 'text',
        data: { text: 'On its way!' },
      })
      .expect(202);
    expect(res.body.data.conversation_category).toBe('SERVICE');

    const notifications = await request(ingress.url)
      .get('/api/v1/notifications')
      .set(ingress.internal(t.tenantId))
      .expect(200);
    expect(notifications.body.data.notifications).toEqual([
      expect.objectContaining({
        type: 'live_chat_request',
        channel_account_id: t.channelAccountId,
        customer_phone: phone,
        customer_name: 'Ana',
        message_id: inbound.body.id,
      }),
    ]);
  });
});
