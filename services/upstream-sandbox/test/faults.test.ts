import { waitFor } from '@bm/platform/testing';
import { uniquePhoneNumberId, uniqueRecipient, useSandbox } from './support/sandbox';
import { statusesFor } from './support/webhook-receiver';
import type { SendLogEntry } from './support/wire-types';

describe('fault injection and throughput', () => {
  const sbx = useSandbox();

  it('when a sync fault with times=1 is set, then only the next matching send fails', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const to = uniqueRecipient();
    const rule = await sbx.http.post('/_sandbox/faults', {
      match: { to, phone_number_id: phoneNumberId },
      error_code: 131056,
      mode: 'sync',
      times: 1,
    });

    const first = await sbx.sendText(phoneNumberId, to);
    const second = await sbx.sendText(phoneNumberId, to);

    expect(rule.status).toBe(201);
    expect(rule.data.id).toEqual(expect.any(String));
    expect(first.status).toBe(400);
    expect(first.data.error.code).toBe(131056);
    expect(second.status).toBe(200);
    const sends = await sbx.http.get<{ data: SendLogEntry[] }>('/_sandbox/sends', { params: { to } });
    expect(sends.data.data.map((s) => s.fault ?? null)).toEqual([rule.data.id, null]);
  });

  it('when a status fault matches by regex, then the send is accepted and then reported failed', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const to = uniqueRecipient('7777');
    await sbx.http.post('/_sandbox/faults', {
      match: { to: `/^${to.slice(0, 6)}\\d+$/`, phone_number_id: phoneNumberId },
      error_code: 131026,
      mode: 'status',
    });

    const res = await sbx.sendText(phoneNumberId, to);
    const messageId: string = res.data.messages[0].id;

    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 2 && statusesFor(sbx.receiver, messageId),
      {
        what: 'failed status',
      },
    );
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'failed']);
    expect(statuses[1].errors![0].code).toBe(131026);
  });

  it('when a fault asks for a plain 503, then the answer is HTTP 503 marked transient', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    await sbx.http.post('/_sandbox/faults', { match: { phone_number_id: phoneNumberId }, error_code: 503 });

    const res = await sbx.sendText(phoneNumberId, uniqueRecipient());

    expect(res.status).toBe(503);
    expect(res.data.error).toMatchObject({ code: 1, is_transient: true });
  });

  it('when a fault sets delay_ms only, then the send succeeds after at least that delay', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    await sbx.http.post('/_sandbox/faults', {
      match: { phone_number_id: phoneNumberId },
      delay_ms: 300,
      times: 1,
    });

    const started = Date.now();
    const res = await sbx.sendText(phoneNumberId, uniqueRecipient());

    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('when a fault drops the answer, then the send is accepted and reported but the client sees a reset', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    const to = uniqueRecipient();
    await sbx.http.post('/_sandbox/faults', { match: { to }, drop_answer: true, times: 1 });

    const dropped = await sbx.http
      .post(`/v21.0/${phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        to,
        type: 'text',
        text: { body: 'Hello' },
        biz_opaque_callback_data: 'attempt-1',
      })
      .then(
        () => 'answered',
        (err: { code?: string }) => err.code,
      );
    const next = await sbx.sendText(phoneNumberId, to);

    expect(dropped).toBe('ECONNRESET');
    expect(next.status).toBe(200);
    const sends = await sbx.http.get<{ data: SendLogEntry[] }>('/_sandbox/sends', { params: { to } });
    expect(sends.data.data.map((s) => [s.result, s.answer_dropped ?? false])).toEqual([
      ['accepted', true],
      ['accepted', false],
    ]);
    const messageId = sends.data.data[0].message_id!;
    const statuses = await waitFor(
      () => statusesFor(sbx.receiver, messageId).length >= 3 && statusesFor(sbx.receiver, messageId),
      { what: 'statuses of the dropped send' },
    );
    expect(statuses.map((s) => [s.status, s.biz_opaque_callback_data])).toEqual([
      ['sent', 'attempt-1'],
      ['delivered', 'attempt-1'],
      ['read', 'attempt-1'],
    ]);
  });

  it('when biz_opaque_callback_data is longer than 512 characters, then the send is refused with error 100', async () => {
    const res = await sbx.http.post(`/v21.0/${uniquePhoneNumberId()}/messages`, {
      messaging_product: 'whatsapp',
      to: uniqueRecipient(),
      type: 'text',
      text: { body: 'Hello' },
      biz_opaque_callback_data: 'x'.repeat(513),
    });

    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe(100);
  });

  it('when the recipient ends in 9500, then it answers HTTP 500 with code 131000', async () => {
    const res = await sbx.sendText(uniquePhoneNumberId(), uniqueRecipient('9500'));

    expect(res.status).toBe(500);
    expect(res.data.error.code).toBe(131000);
  });

  it('when a fault rule is invalid, then the control endpoint answers 400', async () => {
    const res = await sbx.http.post('/_sandbox/faults', { match: { to: '/[/' }, error_code: 131049 });

    expect(res.status).toBe(400);
  });

  it('when sends exceed the number mps within a second, then the excess answers 130429', async () => {
    const phoneNumberId = await sbx.registerNumber({ mps: 3 });

    const answers = await Promise.all(
      Array.from({ length: 6 }, () => sbx.sendText(phoneNumberId, uniqueRecipient())),
    );

    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    const limited = answers.filter((a) => a.status !== 200);
    expect(limited).toHaveLength(3);
    for (const answer of limited) {
      expect(answer.status).toBe(400);
      expect(answer.data.error.code).toBe(130429);
      expect(answer.data.error.error_data.details).toBe('Cloud API message throughput has been reached.');
    }
    const later = await waitFor(
      async () => {
        const res = await sbx.sendText(phoneNumberId, uniqueRecipient());
        return res.status === 200 && res;
      },
      { intervalMs: 200, what: 'the window to move on' },
    );
    expect(later.status).toBe(200);
  });

  it('when the faults are cleared, then matching sends succeed again', async () => {
    const phoneNumberId = uniquePhoneNumberId();
    await sbx.http.post('/_sandbox/faults', {
      match: { phone_number_id: phoneNumberId },
      error_code: 131057,
    });
    const before = await sbx.sendText(phoneNumberId, uniqueRecipient());

    await sbx.http.delete('/_sandbox/faults');
    const after = await sbx.sendText(phoneNumberId, uniqueRecipient());

    expect(before.data.error.code).toBe(131057);
    expect(after.status).toBe(200);
  });
});
