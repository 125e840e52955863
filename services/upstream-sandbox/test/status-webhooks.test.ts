import { waitFor } from '@bm/platform/testing';
import { APP_SECRET, bodyWith, uniquePhoneNumberId, uniqueRecipient, useSandbox } from './support/sandbox';
import { hasValidSignature, statusesFor } from './support/webhook-receiver';

describe('status webhooks', () => {
  const sbx = useSandbox();

  it('when a send is accepted, then sent, delivered and read arrive in order, signed, in the upstream envelope', async () => {
    const phoneNumberId = await sbx.registerNumber({
      waba_id: 'waba-status-1',
      display_phone_number: '15550783881',
    });
    const to = uniqueRecipient();

    const res = await sbx.sendTemplate(phoneNumberId, to, {
      name: 'otp_code',
      components: [bodyWith('123456')],
    });
    const messageId: string = res.data.messages[0].id;

    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 3 && statusesFor(sbx.receiver, messageId),
      {
        what: 'three statuses',
      },
    );
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    const webhooks = sbx.receiver.received.filter((r) => r.raw.includes(messageId));
    for (const webhook of webhooks) {
      expect(webhook.headers['content-type']).toBe('application/json');
      expect(hasValidSignature(webhook, APP_SECRET)).toBe(true);
      expect(hasValidSignature(webhook, 'another-secret')).toBe(false);
    }
    expect(webhooks[1].json).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba-status-1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
                statuses: [
                  {
                    id: messageId,
                    status: 'delivered',
                    timestamp: expect.stringMatching(/^\d{10}$/),
                    recipient_id: to,
                    conversation: { id: expect.any(String), origin: { type: 'authentication' } },
                    pricing: { billable: true, pricing_model: 'PMP', category: 'authentication' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
  });

  it('when a send is accepted, then each of its three statuses is a webhook call of its own with one item', async () => {
    // The lifecycle benchmark (issue 22) relies on this: one send, three receipts, as the upstream reports them.
    const phoneNumberId = uniquePhoneNumberId();
    const res = await sbx.sendText(phoneNumberId, uniqueRecipient(), 'one item per call');
    const messageId: string = res.data.messages[0].id;

    await waitFor(() => statusesFor(sbx.receiver, messageId).length >= 3, { what: 'three statuses' });
    const webhooks = sbx.receiver.received.filter((r) => r.raw.includes(messageId));
    const items = webhooks.map((w) =>
      w.json.entry.flatMap((e) => e.changes.flatMap((c) => c.value.statuses ?? [])),
    );
    expect(webhooks).toHaveLength(3);
    expect(items.map((statuses) => statuses.length)).toEqual([1, 1, 1]);
    expect(items.map((statuses) => statuses[0].status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('when the recipient ends in 0049, then sent is followed by failed with error 131049', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const to = uniqueRecipient('0049');

    const res = await sbx.sendText(phoneNumberId, to);
    const messageId: string = res.data.messages[0].id;

    expect(res.status).toBe(200);
    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 2 && statusesFor(sbx.receiver, messageId),
      {
        what: 'sent and failed',
      },
    );
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'failed']);
    expect(statuses[1]).toEqual({
      id: messageId,
      status: 'failed',
      timestamp: expect.stringMatching(/^\d+$/),
      recipient_id: to,
      errors: [
        {
          code: 131049,
          title: expect.any(String),
          message: expect.any(String),
          error_data: { details: expect.any(String) },
        },
      ],
    });
  });

  it('when the receiver answers 500 at first, then the webhook is retried until it is accepted', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const to = uniqueRecipient();
    sbx.receiver.respond = (raw, attempt) => (raw.includes(to) && attempt <= 2 ? 500 : 200);

    const res = await sbx.sendText(phoneNumberId, to);
    const messageId: string = res.data.messages[0].id;

    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 3 && statusesFor(sbx.receiver, messageId),
      {
        what: 'three statuses after retries',
      },
    );
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    const failedAttempts = sbx.receiver.received.filter(
      (r) => r.raw.includes(messageId) && r.answeredWith === 500,
    );
    expect(failedAttempts.length).toBeGreaterThanOrEqual(2);
    sbx.receiver.respond = () => 200;
  });
});
