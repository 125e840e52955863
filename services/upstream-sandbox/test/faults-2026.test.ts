import { waitFor } from '@bm/platform/testing';
import { uniquePhoneNumberId, uniqueRecipient, useSandbox } from './support/sandbox';
import { statusesFor } from './support/webhook-receiver';
import { send2026, template, valuesOf } from './support/wire-2026';

const MARKETING = template({
  name: 'order_update',
  components: [
    { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/a.jpg' } }] },
    {
      type: 'body',
      parameters: [
        { type: 'text', text: 'Mark' },
        { type: 'text', text: '#1' },
      ],
    },
  ],
});

describe('the 2026 fault patterns and marketing preferences', () => {
  const sbx = useSandbox();

  const statuses = (messageId: string, count: number) =>
    waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= count && statusesFor(sbx.receiver, messageId),
      {
        what: `${count} statuses`,
      },
    );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

  it('when the recipient ends in 1015, then the send is held and later goes out with the usual statuses', async () => {
    const res = await send2026(sbx.http, uniquePhoneNumberId(), { to: uniqueRecipient('1015') }, MARKETING);

    const items = await statuses(res.data.messages[0].id, 3);

    expect(res.status).toBe(200);
    expect(res.data.messages[0].message_status).toBe('held_for_quality_assessment');
    expect(items.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('when the recipient ends in 2015, then the send is held and then dropped with a failed status 132015 alone', async () => {
    const res = await send2026(sbx.http, uniquePhoneNumberId(), { to: uniqueRecipient('2015') }, MARKETING);
    const messageId = res.data.messages[0].id;

    const items = await statuses(messageId, 1);
    await settle();

    expect(res.data.messages[0].message_status).toBe('held_for_quality_assessment');
    expect(statusesFor(sbx.receiver, messageId).map((s) => s.status)).toEqual(['failed']);
    expect(items[0].errors![0].code).toBe(132015);
  });

  it('when the recipient ends in 0472, then the send fails with 130472 and nothing is priced', async () => {
    const res = await send2026(sbx.http, uniquePhoneNumberId(), { to: uniqueRecipient('0472') }, MARKETING);
    const messageId = res.data.messages[0].id;

    const items = await statuses(messageId, 1);
    await settle();

    expect(statusesFor(sbx.receiver, messageId).map((s) => s.status)).toEqual(['failed']);
    expect(items[0].errors![0].code).toBe(130472);
    expect(items[0]).not.toHaveProperty('pricing');
  });

  it('when the recipient ends in 1050, then the send fails with 131050 and a user_preferences stop webhook follows', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const phone = uniqueRecipient('1050');
    const res = await send2026(sbx.http, phoneNumberId, { to: phone }, MARKETING);

    const items = await statuses(res.data.messages[0].id, 1);
    const preference = await waitFor(
      () => valuesOf(sbx.receiver, 'user_preferences').find((v) => JSON.stringify(v).includes(phone)),
      { what: 'user_preferences webhook' },
    );

    expect(items[0].errors![0].code).toBe(131050);
    expect(preference).toMatchObject({
      messaging_product: 'whatsapp',
      metadata: { phone_number_id: phoneNumberId },
      user_preferences: [
        {
          wa_id: phone,
          user_id: expect.stringMatching(/^US\.\d{20}$/),
          category: 'marketing_messages',
          value: 'stop',
          detail: expect.any(String),
          timestamp: expect.any(Number),
        },
      ],
    });
  });

  it('when a customer stops marketing, then marketing templates to them fail with 131050 until they resume, and utility ones go', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const phone = uniqueRecipient();

    const stop = await sbx.http.post('/_sandbox/user-preferences', {
      phone_number_id: phoneNumberId,
      from: phone,
      value: 'stop',
    });
    const marketing = await send2026(sbx.http, phoneNumberId, { to: phone }, MARKETING);
    const utility = await send2026(sbx.http, phoneNumberId, { to: phone }, template({ name: 'hello_world' }));
    const failed = await statuses(marketing.data.messages[0].id, 1);
    const delivered = await statuses(utility.data.messages[0].id, 2);
    const resume = await sbx.http.post('/_sandbox/user-preferences', {
      phone_number_id: phoneNumberId,
      from: phone,
      value: 'resume',
    });
    const again = await send2026(sbx.http, phoneNumberId, { to: phone }, MARKETING);
    const goes = await statuses(again.data.messages[0].id, 2);

    expect(stop.data).toMatchObject({ delivered: true, customer: { wa_id: phone, marketing: 'stop' } });
    expect(failed.map((s) => [s.status, s.errors?.[0].code])).toEqual([['failed', 131050]]);
    expect(delivered.slice(0, 2).map((s) => s.status)).toEqual(['sent', 'delivered']);
    expect(resume.data.customer.marketing).toBe('resume');
    expect(goes.slice(0, 2).map((s) => s.status)).toEqual(['sent', 'delivered']);
    const values = valuesOf(sbx.receiver, 'user_preferences').filter((v) =>
      JSON.stringify(v).includes(phone),
    );
    expect(values.map((v) => (v.user_preferences as { value: string }[])[0].value)).toEqual([
      'stop',
      'resume',
    ]);
  });

  it('when a username-only customer stops marketing, then the user_preferences item has user_id and no wa_id', async () => {
    const res = await sbx.http.post('/_sandbox/user-preferences', {
      phone_number_id: uniquePhoneNumberId(),
      user_id: 'BR.777000111',
      value: 'stop',
    });

    const value = await waitFor(
      () =>
        valuesOf(sbx.receiver, 'user_preferences').find((v) => JSON.stringify(v).includes('BR.777000111')),
      { what: 'user_preferences webhook' },
    );

    expect(res.data.delivered).toBe(true);
    expect((value.user_preferences as Record<string, unknown>[])[0]).toEqual({
      user_id: 'BR.777000111',
      category: 'marketing_messages',
      value: 'stop',
      detail: expect.any(String),
      timestamp: expect.any(Number),
    });
  });

  it('when the recipient ends in 1062, then the send answers HTTP 400 with 131062', async () => {
    const res = await send2026(sbx.http, uniquePhoneNumberId(), { to: uniqueRecipient('1062') });

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(131062);
  });

  it('when the recipient ends in 9056 or 9057, then the send is refused with HTTP 400 131056 or 131057 like 130429', async () => {
    const phoneNumberId = uniquePhoneNumberId();

    const pair = await send2026(sbx.http, phoneNumberId, { to: uniqueRecipient('9056') });
    const upgrade = await send2026(sbx.http, phoneNumberId, { to: uniqueRecipient('9057') });
    const byUserId = await send2026(sbx.http, phoneNumberId, { recipient: 'US.8889056' });

    expect([pair.status, pair.data.error.code]).toEqual([400, 131056]);
    expect([upgrade.status, upgrade.data.error.code]).toEqual([400, 131057]);
    expect([byUserId.status, byUserId.data.error.code]).toEqual([400, 131056]);
  });

  it('when the send path is v21.0 and the sandbox plays v21.0, then the 2026 patterns do not apply', async () => {
    const res = await send2026(
      sbx.http,
      uniquePhoneNumberId(),
      { to: uniqueRecipient('2015') },
      MARKETING,
      'v21.0',
    );

    const items = await statuses(res.data.messages[0].id, 3);

    expect(res.data.messages[0]).toEqual({ id: expect.any(String) });
    expect(items.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('when a fault rule holds sends with error 132015, then the answer is held and the message is dropped', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    await sbx.http.post('/_sandbox/faults', {
      match: { phone_number_id: phoneNumberId },
      held: true,
      error_code: 132015,
    });

    const res = await send2026(sbx.http, phoneNumberId, { to: uniqueRecipient() }, MARKETING, 'v21.0');
    const items = await statuses(res.data.messages[0].id, 1);

    expect(res.data.messages[0].message_status).toBe('held_for_quality_assessment');
    expect(items.map((s) => [s.status, s.errors?.[0].code])).toEqual([['failed', 132015]]);
  });
});
