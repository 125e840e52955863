import { TEXT_BODY_MAX } from '../src/sends/send-validation';
import type { SendLogEntry } from './support/wire-types';
import { sendText, uniquePhoneNumberId, uniqueRecipient, useSandbox } from './support/sandbox';

describe('POST /{version}/{phone_number_id}/messages', () => {
  const sbx = useSandbox();

  it('when a text send is valid, then it answers 200 with the contact and a wamid', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const digits = uniqueRecipient();
    const to = `+${digits.slice(0, 1)} ${digits.slice(1, 4)}-${digits.slice(4)}`;

    const res = await sbx.sendText(phoneNumberId, to);

    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: digits }],
      messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9_-]{20,}$/) }],
    });
  });

  it('when two sends are accepted, then their message ids differ', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const to = uniqueRecipient();

    const [a, b] = await Promise.all([sbx.sendText(phoneNumberId, to), sbx.sendText(phoneNumberId, to)]);

    expect(a.data.messages[0].id).not.toBe(b.data.messages[0].id);
  });

  it('when the Authorization header is missing, then it answers 401 with code 190', async () => {
    const to = uniqueRecipient();

    const res = await sendText(
      sbx.http.create({ headers: { Authorization: '' } }),
      uniquePhoneNumberId(),
      to,
    );

    expect(res.status).toBe(401);
    expect(res.data.error).toEqual({
      message: expect.stringContaining('(#190)'),
      type: 'OAuthException',
      code: 190,
      error_data: { messaging_product: 'whatsapp', details: expect.any(String) },
      fbtrace_id: expect.any(String),
    });
  });

  it('when the text body is longer than 4096 characters, then it answers 400 with code 100', async () => {
    const res = await sbx.sendText(uniquePhoneNumberId(), uniqueRecipient(), 'x'.repeat(TEXT_BODY_MAX + 1));

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(100);
    expect(res.data.error.error_data.details).toContain('4096');
  });

  it('when messaging_product is missing, then it answers 400 with code 100', async () => {
    const res = await sbx.http.post(`/v21.0/${uniquePhoneNumberId()}/messages`, {
      to: uniqueRecipient(),
      type: 'text',
      text: { body: 'Hi' },
    });

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(100);
  });

  it('when the path has no version segment, then no send is accepted', async () => {
    const res = await sbx.http.post(`/latest/${uniquePhoneNumberId()}/messages`, {
      messaging_product: 'whatsapp',
      to: uniqueRecipient(),
      text: { body: 'Hi' },
    });

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(100);
  });

  it('when sends were accepted and rejected, then the sends log lists both with their results', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const to = uniqueRecipient();
    await sbx.sendText(phoneNumberId, to, 'ok');
    await sbx.sendText(phoneNumberId, to, 'x'.repeat(TEXT_BODY_MAX + 1));

    const list = await sbx.http.get<{ data: SendLogEntry[] }>('/_sandbox/sends', {
      params: { to, phone_number_id: phoneNumberId },
    });
    const count = await sbx.http.get('/_sandbox/sends/count', { params: { to } });

    expect(list.data.data.map((s) => [s.result, s.http_status])).toEqual([
      ['accepted', 200],
      ['rejected', 400],
    ]);
    expect(list.data.data[0].body.text!.body).toBe('ok');
    expect(list.data.data[1].error_code).toBe(100);
    expect(count.data).toEqual({ count: 2, accepted: 1, rejected: 1 });
  });
});
