import { waitFor } from '@bm/platform/testing';
import { bodyWith, uniquePhoneNumberId, uniqueRecipient, useSandbox } from './support/sandbox';
import { statusesFor } from './support/webhook-receiver';
import { send2026, template, userIdOf, valuesOf } from './support/wire-2026';

const USER_ID = /^US\.\d{20}$/;

describe('customers with business-scoped user ids and usernames', () => {
  const sbx = useSandbox({ SANDBOX_GRAPH_VERSION: 'v24.0' });

  const inbound = async (body: Record<string, unknown>) => {
    const res = await sbx.http.post<{ id: string; user_id?: string }>('/_sandbox/inbound', body);
    const value = await waitFor(
      () => valuesOf(sbx.receiver, 'messages').find((v) => JSON.stringify(v).includes(res.data.id)),
      { what: 'inbound webhook' },
    );
    return {
      res,
      value: value as { contacts: Record<string, unknown>[]; messages: Record<string, unknown>[] },
    };
  };

  it('when a customer with a phone writes at v24.0, then the webhook carries user_id and from_user_id beside wa_id and from', async () => {
    const phoneNumberId = await sbx.registerNumber({ waba_id: 'waba-bsuid-1' });
    const from = uniqueRecipient();

    const { value } = await inbound({ phone_number_id: phoneNumberId, from, name: 'Ana', text: 'Hi' });

    const userId = value.contacts[0].user_id as string;
    expect(userId).toMatch(USER_ID);
    expect(value.contacts).toEqual([{ profile: { name: 'Ana' }, wa_id: from, user_id: userId }]);
    expect(value.messages[0]).toMatchObject({ from, from_user_id: userId, type: 'text' });
    // Stable per phone and portfolio; another portfolio sees another id.
    expect(await userIdOf(sbx, phoneNumberId, from)).toBe(userId);
    const other = await sbx.registerNumber({ waba_id: 'waba-bsuid-2' });
    expect(await userIdOf(sbx, other, from)).not.toBe(userId);
    const sameBusiness = await sbx.registerNumber({ waba_id: 'waba-bsuid-3', business_id: 'waba-bsuid-1' });
    expect(await userIdOf(sbx, sameBusiness, from)).toBe(userId);
  });

  it('when a customer with a username only writes, then the webhook has user_id and username and no wa_id or from', async () => {
    const phoneNumberId = uniquePhoneNumberId();

    const { res, value } = await inbound({
      phone_number_id: phoneNumberId,
      username: 'ana.b',
      name: 'Ana',
      text: 'Hi',
    });

    expect(res.data.user_id).toMatch(/^[A-Z]{2}\.\d{20}$/);
    expect(value.contacts).toEqual([
      { profile: { name: 'Ana', username: 'ana.b' }, user_id: res.data.user_id },
    ]);
    expect(value.messages[0]).not.toHaveProperty('from');
    expect(value.messages[0]).toMatchObject({ from_user_id: res.data.user_id, text: { body: 'Hi' } });
  });

  it('when a customer with a phone is made username-only, then neither their messages nor their statuses show the phone', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const from = uniqueRecipient();

    const { res, value } = await inbound({
      phone_number_id: phoneNumberId,
      from,
      username: 'carla',
      username_only: true,
      text: 'Hi',
    });
    const sent = await send2026(sbx.http, phoneNumberId, { recipient: res.data.user_id! });
    const messageId = sent.data.messages[0].id;
    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 3 && statusesFor(sbx.receiver, messageId),
      {
        what: 'statuses',
      },
    );

    expect(value.contacts[0]).not.toHaveProperty('wa_id');
    expect(value.messages[0]).not.toHaveProperty('from');
    expect(JSON.stringify(value)).not.toContain(from);
    for (const status of statuses) {
      expect(status).not.toHaveProperty('recipient_id');
      expect(status.recipient_user_id).toBe(res.data.user_id);
    }
  });

  it('when a send goes to a recipient user id, then the answer has input and user_id and no wa_id, and its statuses carry recipient_user_id', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const userId = 'US.13491208655302741918';

    const res = await send2026(sbx.http, phoneNumberId, { recipient: userId });
    const messageId = res.data.messages[0].id;
    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 3 && statusesFor(sbx.receiver, messageId),
      {
        what: 'statuses',
      },
    );

    expect(res.status).toBe(200);
    expect(res.data.contacts).toEqual([{ input: userId, user_id: userId }]);
    expect(statuses.map((s) => [s.status, s.recipient_user_id, s.recipient_id])).toEqual([
      ['sent', userId, undefined],
      ['delivered', userId, undefined],
      ['read', userId, undefined],
    ]);
    const log = await sbx.http.get<{ data: unknown[] }>('/_sandbox/sends', { params: { user_id: userId } });
    expect(log.data.data).toHaveLength(1);
  });

  it('when a send by user id goes to a customer whose phone is known, then its statuses carry both ids', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const phone = uniqueRecipient();
    const userId = await userIdOf(sbx, phoneNumberId, phone);

    const res = await send2026(sbx.http, phoneNumberId, { recipient: userId });
    const messageId = res.data.messages[0].id;
    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 1 && statusesFor(sbx.receiver, messageId),
      {
        what: 'sent',
      },
    );

    expect(statuses[0]).toMatchObject({ recipient_id: phone, recipient_user_id: userId });
  });

  it('when a send carries both to and recipient, then to wins', async () => {
    const phone = uniqueRecipient();

    const res = await send2026(sbx.http, uniquePhoneNumberId(), { to: phone, recipient: 'US.1' });

    expect(res.status).toBe(200);
    expect(res.data.contacts).toEqual([{ input: phone, wa_id: phone }]);
  });

  it('when the recipient is not a user id, then the send answers 400 with code 100', async () => {
    const res = await send2026(sbx.http, uniquePhoneNumberId(), { recipient: '14155550123' });

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(100);
  });

  it('when an authentication template goes to a user id, then it answers 131062, and to a phone it goes', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const otp = template({ name: 'otp_code', components: [bodyWith('123456')] });

    const toUserId = await send2026(sbx.http, phoneNumberId, { recipient: 'US.55501' }, otp);
    const toPhone = await send2026(sbx.http, phoneNumberId, { to: uniqueRecipient() }, otp);
    const utility = await send2026(
      sbx.http,
      phoneNumberId,
      { recipient: 'US.55502' },
      template({ name: 'hello_world' }),
    );

    expect(toUserId.status).toBe(400);
    expect(toUserId.data.error.code).toBe(131062);
    expect(toPhone.status).toBe(200);
    expect(utility.status).toBe(200);
  });
});
