import { waitFor } from '@bm/platform/testing';
import { APP_SECRET, uniquePhoneNumberId, uniqueRecipient, useSandbox } from './support/sandbox';
import { hasValidSignature } from './support/webhook-receiver';

describe('POST /_sandbox/inbound', () => {
  const sbx = useSandbox();

  it('when a customer message is simulated, then a signed messages webhook with contacts and messages arrives', async () => {
    const phoneNumberId = await sbx.registerNumber({
      waba_id: 'waba-inbound',
      display_phone_number: '15550783881',
    });
    const from = uniqueRecipient();

    const res = await sbx.http.post('/_sandbox/inbound', {
      phone_number_id: phoneNumberId,
      from,
      text: 'STOP',
      name: 'Sheena Nelson',
    });

    expect(res.status).toBe(200);
    expect(res.data).toEqual({ id: expect.stringMatching(/^wamid\./), delivered: true });
    const webhook = await waitFor(() => sbx.receiver.received.find((r) => r.raw.includes(res.data.id)), {
      what: 'inbound webhook',
    });
    expect(hasValidSignature(webhook, APP_SECRET)).toBe(true);
    expect(webhook.json).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba-inbound',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: from }],
                messages: [
                  {
                    from,
                    id: res.data.id,
                    timestamp: expect.stringMatching(/^\d{10}$/),
                    type: 'text',
                    text: { body: 'STOP' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
  });

  it('when a quick-reply button press is simulated, then the message carries the button and its context', async () => {
    const phoneNumberId = uniquePhoneNumberId();

    const res = await sbx.http.post('/_sandbox/inbound', {
      phone_number_id: phoneNumberId,
      from: uniqueRecipient(),
      type: 'button',
      text: 'Stop',
      context_id: 'wamid.original',
    });

    const webhook = await waitFor(() => sbx.receiver.received.find((r) => r.raw.includes(res.data.id)), {
      what: 'button webhook',
    });
    expect(webhook.json.entry[0].changes[0].value.messages![0]).toMatchObject({
      type: 'button',
      button: { text: 'Stop', payload: 'Stop' },
      context: { id: 'wamid.original' },
    });
  });

  it('when phone_number_id is missing, then it answers 400', async () => {
    const res = await sbx.http.post('/_sandbox/inbound', { from: uniqueRecipient() });

    expect(res.status).toBe(400);
  });
});
