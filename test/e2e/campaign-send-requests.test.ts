import request from 'supertest';
import { ulid } from 'ulidx';
import { waitFor } from '@bm/platform/testing';
import { collectEvents, publishInbound } from '../support/events';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('messaging.send_requested from the campaign service', () => {
  let stack: Stack;
  let t: TenantFixture;
  let events: Awaited<ReturnType<typeof collectEvents>>;

  beforeAll(async () => {
    stack = await startStack();
    t = await createTenant(stack);
    events = await collectEvents(stack, ['message.status_updated']);
  });
  afterAll(() => stack.stop());

  const command = (overrides: Record<string, unknown> = {}) => ({
    tenant_id: t.tenantId,
    campaign_id: ulid(),
    campaign_recipient_id: ulid(),
    channel_account_id: t.channelAccountId,
    phone: randomPhone(),
    template_name: 'otp_code',
    template_language: 'en_US',
    components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }],
    ...overrides,
  });

  it('when the same command arrives twice, then one message is sent and its status event names the recipient', async () => {
    const c = command();
    await publishInbound(stack, 'messaging.send_requested', c);
    await publishInbound(stack, 'messaging.send_requested', c);
    const event = await waitFor(
      () => events.find((e) => e.payload.campaign_recipient_id === c.campaign_recipient_id),
      {
        what: 'status event',
      },
    );
    expect(event.payload).toMatchObject({ status: 'sent', campaign_id: c.campaign_id, to_phone: c.phone });
    await new Promise((r) => setTimeout(r, 500));
    expect((await request(stack.sandboxUrl).get(`/_sandbox/sends/count?to=${c.phone}`)).body.count).toBe(1);
    const list = await request(stack.gatewayUrl)
      .get(`/api/v1/messages?campaign_id=${c.campaign_id}`)
      .set(t.auth)
      .expect(200);
    expect(list.body.data.messages).toHaveLength(1);
    expect(list.body.data.messages[0]).toMatchObject({
      status: 'sent',
      campaign_id: c.campaign_id,
      message_type: 'template',
    });
  });

  it('when the template can no longer be sent, then the message fails and the campaign still hears back', async () => {
    const c = command({ template_name: 'promo_paused', components: [] });
    await publishInbound(stack, 'messaging.send_requested', c);
    const event = await waitFor(
      () => events.find((e) => e.payload.campaign_recipient_id === c.campaign_recipient_id),
      {
        what: 'failed event',
      },
    );
    expect(event.payload).toMatchObject({
      status: 'failed',
      error_message: expect.stringMatching(/TEMPLATE_PAUSED/),
    });
  });
});
