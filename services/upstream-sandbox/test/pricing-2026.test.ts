import { waitFor } from '@bm/platform/testing';
import { bodyWith, uniquePhoneNumberId, uniqueRecipient, useSandbox } from './support/sandbox';
import { statusesFor } from './support/webhook-receiver';
import { send2026, template } from './support/wire-2026';

describe('per-message pricing on status webhooks', () => {
  const sbx = useSandbox();

  const statuses = (messageId: string, count: number) =>
    waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= count && statusesFor(sbx.receiver, messageId),
      {
        what: `${count} statuses`,
      },
    );

  it('when a marketing template is sent at v24.0, then sent and delivered carry PMP regular pricing, read none, and no status a conversation', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const res = await send2026(
      sbx.http,
      phoneNumberId,
      { to: uniqueRecipient() },
      template({
        name: 'order_update',
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/a.jpg' } }] },
          bodyWith('Mark', '#1'),
        ],
      }),
    );

    const items = await statuses(res.data.messages[0].id, 3);

    expect(res.data.messages[0].message_status).toBe('accepted');
    const pricing = { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' };
    expect(items.map((s) => [s.status, s.pricing])).toEqual([
      ['sent', pricing],
      ['delivered', pricing],
      ['read', undefined],
    ]);
    for (const item of items) expect(item).not.toHaveProperty('conversation');
    // The 2026 wire names the customer by user id too.
    expect(items[0].recipient_user_id).toMatch(/^US\.\d{20}$/);
  });

  it('when a free-form reply is sent at v24.0, then it is priced free_customer_service in category service', async () => {
    const res = await send2026(sbx.http, uniquePhoneNumberId(), { to: uniqueRecipient() });

    const items = await statuses(res.data.messages[0].id, 2);

    expect(items[0].pricing).toEqual({
      billable: false,
      pricing_model: 'PMP',
      type: 'free_customer_service',
      category: 'service',
    });
    expect(res.data.messages[0]).not.toHaveProperty('message_status');
  });

  it('when a utility template goes to a customer who wrote within 24 h, then it is free customer service', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const phone = uniqueRecipient();
    await sbx.http.post('/_sandbox/inbound', { phone_number_id: phoneNumberId, from: phone, text: 'Hi' });

    const res = await send2026(sbx.http, phoneNumberId, { to: phone }, template({ name: 'hello_world' }));
    const items = await statuses(res.data.messages[0].id, 1);

    expect(items[0].pricing).toMatchObject({
      type: 'free_customer_service',
      category: 'utility',
      billable: false,
    });
  });

  it('when the send path is v21.0, then statuses keep the conversation and the pricing without type', async () => {
    const res = await send2026(
      sbx.http,
      uniquePhoneNumberId(),
      { to: uniqueRecipient() },
      undefined,
      'v21.0',
    );

    const items = await statuses(res.data.messages[0].id, 3);

    for (const item of items) {
      expect(item.conversation).toEqual({ id: expect.any(String), origin: { type: 'service' } });
      expect(item.pricing).toEqual({ billable: false, pricing_model: 'PMP', category: 'service' });
      expect(item).not.toHaveProperty('recipient_user_id');
    }
  });

  it('when an audio message is sent at v24.0, then played follows read', async () => {
    const res = await send2026(
      sbx.http,
      uniquePhoneNumberId(),
      { to: uniqueRecipient() },
      {
        type: 'audio',
        audio: { id: '1234567890' },
      },
    );

    const items = await statuses(res.data.messages[0].id, 4);

    expect(items.map((s) => s.status)).toEqual(['sent', 'delivered', 'read', 'played']);
    expect(items[3]).not.toHaveProperty('pricing');
  });
});
