import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { collectEvents, inboundText, publishInbound } from '../support/events';
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

  it('when a customer with a username writes without a phone, then the message is kept, told and answered by a person', async () => {
    const username = `@ana.${Date.now()}`;
    const inbound = await request(stack.sandboxUrl)
      .post('/_sandbox/inbound')
      .send({ phone_number_id: t.phoneNumberId, username, text: 'Do you ship to Lisbon?', name: 'Ana' })
      .expect(200);
    expect(inbound.body.delivered).toBe(true);
    const userId = inbound.body.user_id as string;
    expect(userId).toMatch(/^[A-Z]{2}\./);
    const received = await waitFor(() => events.find((e) => e.payload.message_id === inbound.body.id), {
      what: 'message.received of a customer without a phone',
    });
    expect(received.payload).toMatchObject({
      tenant_id: t.tenantId,
      channel_account_id: t.channelAccountId,
      from: null,
      from_user_id: userId,
      username,
      name: 'Ana',
      text: 'Do you ship to Lisbon?',
    });
    const request2 = await waitFor(
      async () => {
        const res = await request(ingress.url)
          .get('/api/v1/notifications')
          .set(ingress.internal(t.tenantId))
          .expect(200);
        return (res.body.data.notifications as Array<Record<string, unknown>>).find(
          (n) => n.message_id === inbound.body.id,
        );
      },
      { what: 'live-chat request' },
    );
    expect(request2).toMatchObject({
      type: 'live_chat_request',
      customer_phone: null,
      customer_user_id: userId,
      customer_name: 'Ana',
    });
  });

  it('when the upstream tells of a customer changing their number (a system message), then it is no customer message', async () => {
    const [phone, newPhone] = [randomPhone(), randomPhone()];
    const system = {
      ...inboundText(t, phone, ''),
      from_user_id: null,
      username: null,
      type: 'system',
      text: null,
      raw: {
        from: phone,
        type: 'system',
        system: { body: 'User A changed from +1 to +2', wa_id: newPhone, type: 'user_changed_number' },
      },
    };
    await publishInbound(stack, 'inbound.message', system);
    const after = inboundText(t, phone, 'hello again');
    await publishInbound(stack, 'inbound.message', after);
    await waitFor(() => events.find((e) => e.payload.message_id === after.message_id), {
      what: 'the later message',
    });
    expect(events.filter((e) => e.payload.message_id === system.message_id)).toHaveLength(0);
  });
});
