import { DELIVER_COMMAND, DOMAIN_EVENTS } from '@bm/contracts';
import { ulid } from 'ulidx';
import { derivedUlid } from '@bm/platform';
import { waitFor } from '@bm/platform/testing';
import { connectTenant, freshPhone, useMessaging } from './factories/messaging';

const FREQUENCY_CAP = [
  { code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' },
];

describe('messaging alone: sending, receipts, the service window, the frequency-cap retry and scheduling', () => {
  const { m, t } = useMessaging({ FREQUENCY_CAP_RETRY_DELAY_MS: '1000' });

  /** Sends and waits until the upstream accepted it: the message and the wamid the upstream gave. */
  const sentMessage = async (body: Record<string, unknown> = {}) => {
    const id = (await t.send(body).expect(202)).body.data.message_log_id as number;
    const sent = await t.messageIn(id, ['sent']);
    return { id, wamid: sent.provider_message_id as string, phone: sent.to_phone as string };
  };
  const statusEvents = (id: number) =>
    m.publishedWith('message.status_updated', 'message_log_id', id).map((e) => e.status);

  it('when a template is sent, then it is queued, delivered to the upstream from its number, and sent with the wamid', async () => {
    const phone = freshPhone();
    const accepted = await t.send({ phone }).expect(202);
    expect(accepted.body.data).toMatchObject({ status: 'queued', conversation_category: 'UTILITY' });
    const sent = await t.messageIn(accepted.body.data.message_log_id as number, ['sent']);
    const [send] = m.upstream.sendsTo(phone);
    expect(send.phoneNumberId).toBe(t.phoneNumberId);
    expect(send.body).toMatchObject({ to: phone, type: 'template', template: { name: 'hello_world' } });
    expect(sent).toMatchObject({ status: 'sent', provider_message_id: send.wamid });
    await waitFor(() => statusEvents(sent.message_log_id as number).length > 0, { what: 'sent event' });
    expect(statusEvents(sent.message_log_id as number)).toEqual(['sent']);
  });

  it('when receipts arrive out of order and twice, then the status only moves forward and each change is emitted once', async () => {
    const { id, wamid } = await sentMessage();
    await t.report(wamid, 'read');
    await t.messageIn(id, ['read']);
    for (const status of ['delivered', 'sent', 'read', 'delivered']) await t.report(wamid, status);
    // A receipt of another message published after them: once it is applied, those were consumed too.
    const marker = await sentMessage();
    await t.report(marker.wamid, 'delivered');
    await t.messageIn(marker.id, ['delivered']);
    const read = await t.message(id);
    expect(read).toMatchObject({ status: 'read', delivered_at: null });
    expect(read.read_at).not.toBeNull();
    expect(statusEvents(id)).toEqual(['sent', 'read']);
  });

  it('when a message is sent and receipts move it, then its status events go to the broker with no outbox row, each with the id its message and status give', async () => {
    const { id, wamid } = await sentMessage();
    await t.report(wamid, 'delivered');
    await t.report(wamid, 'read');
    await waitFor(() => statusEvents(id).includes('read'), { what: 'read event' });
    const events = m.publishedWith('message.status_updated', 'message_log_id', id);
    expect(events.map((e) => [e.status, e.previous_status])).toEqual([
      ['sent', 'queued'],
      ['delivered', 'sent'],
      ['read', 'delivered'],
    ]);
    const created = new Date((await t.message(id)).created_at as string).getTime();
    for (const e of events)
      expect(e.event_id).toBe(derivedUlid(created, `message.status_updated:${id}:${String(e.status)}`));
    // The send's answer and the receipts sent their events after their commit, none through the outbox.
    const rows = await m.query(
      `SELECT payload->>'status' AS status FROM messaging.outbox
        WHERE (routing_key LIKE 'message.status_updated%' AND payload->>'message_log_id' = $1)
           OR (routing_key = 'message.statuses_updated'
               AND EXISTS (SELECT FROM jsonb_array_elements(payload->'events') e
                            WHERE e->'event'->>'message_log_id' = $1))`,
      [String(id)],
    );
    expect(rows).toEqual([]);
  });

  it('when the broker delivers a receipt again (a retry, or after a crash), then the event of the status it reports is sent again as it was; a plain duplicate sends nothing', async () => {
    const { id, wamid } = await sentMessage();
    await t.report(wamid, 'delivered');
    await waitFor(() => statusEvents(id).includes('delivered'), { what: 'delivered event' });
    await t.report(wamid, 'delivered');
    // The read receipt comes after the duplicate on the queue: once its event is out, the duplicate was applied.
    await t.report(wamid, 'read');
    await waitFor(() => statusEvents(id).includes('read'), { what: 'read event' });
    expect(statusEvents(id)).toEqual(['sent', 'delivered', 'read']);
    // A retry of the delivered receipt: the message has moved past it, and its event is sent again, the same event.
    await t.report(wamid, 'delivered', {}, { 'x-bm-attempt': 2 });
    await waitFor(() => statusEvents(id).length === 4, { what: 'delivered event sent again' });
    const delivered = m
      .publishedWith('message.status_updated', 'message_log_id', id)
      .filter((e) => e.status === 'delivered');
    expect(delivered).toHaveLength(2);
    const { occurred_at: _first, ...again } = delivered[1];
    const { occurred_at: _original, ...original } = delivered[0];
    expect(again).toEqual(original);
    expect((await t.message(id)).status).toBe('read');
  });

  it('when the broker delivers a deliver command again after its message was sent, then the message is not sent twice and its sent event goes out again as it was', async () => {
    const { id, phone } = await sentMessage();
    await waitFor(() => statusEvents(id).includes('sent'), { what: 'sent event' });
    await m.command(DELIVER_COMMAND, { messages: [{ id }] }, { 'x-bm-attempt': 2 });
    await waitFor(() => statusEvents(id).length === 2, { what: 'sent event sent again' });
    const [original, again] = m.publishedWith('message.status_updated', 'message_log_id', id);
    expect({ ...again, occurred_at: null }).toEqual({ ...original, occurred_at: null });
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
  });

  it('when receipts come together in one message (inbound.statuses), then each is checked and applied on its own', async () => {
    const first = await sentMessage();
    const second = await sentMessage();
    const receipt = (wamid: string, status: string) => ({
      event_id: ulid(),
      tenant_id: null,
      occurred_at: new Date().toISOString(),
      waba_id: t.wabaId,
      phone_number_id: t.phoneNumberId,
      provider_message_id: wamid,
      status,
      errors: [],
      recipient_id: '0',
      pricing_category: null,
      conversation_id: null,
    });
    await m.command(DOMAIN_EVENTS.inboundStatuses, {
      event_id: ulid(),
      occurred_at: new Date().toISOString(),
      statuses: [receipt(first.wamid, 'delivered'), receipt(second.wamid, 'read')],
    });
    await t.messageIn(first.id, ['delivered']);
    await t.messageIn(second.id, ['read']);
    await waitFor(() => statusEvents(second.id).includes('read'), { what: 'read event' });
    expect(statusEvents(first.id)).toEqual(['sent', 'delivered']);
  });

  it('when a failed receipt names an upstream code, then the message fails naming it and a later delivered changes nothing', async () => {
    const { id, wamid } = await sentMessage();
    await t.report(wamid, 'failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] });
    expect((await t.messageIn(id, ['failed'])).error_message).toMatch(/131026/);
    await t.report(wamid, 'delivered');
    const marker = await sentMessage();
    await t.report(marker.wamid, 'delivered');
    await t.messageIn(marker.id, ['delivered']);
    expect((await t.message(id)).status).toBe('failed');
  });

  it('when the upstream refuses for the frequency cap and the send opted in, then one retry goes out after the delay, and is not retried again', async () => {
    const { id, wamid, phone } = await sentMessage({ auto_retry_on_frequency_cap: true });
    await t.report(wamid, 'failed', { errors: FREQUENCY_CAP });
    const original = await waitFor(
      async () => {
        const found = await t.message(id);
        return found.retried_by_message_log_id !== null && found;
      },
      { what: 'retry link' },
    );
    const retryId = original.retried_by_message_log_id as number;
    expect(original.status).toBe('failed');
    expect(await t.message(retryId)).toMatchObject({
      status: 'scheduled',
      retry_count: 1,
      retry_of_message_log_id: id,
    });
    const retry = await t.messageIn(retryId, ['sent']);
    expect(m.upstream.sendsTo(phone)).toHaveLength(2);
    await t.report(retry.provider_message_id as string, 'failed', { errors: FREQUENCY_CAP });
    await t.messageIn(retryId, ['failed']);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await t.message(retryId)).retried_by_message_log_id).toBeNull();
    expect(m.upstream.sendsTo(phone)).toHaveLength(2);
  });

  it('when a frequency-capped send did not opt in, then it fails without a retry', async () => {
    const { id, wamid } = await sentMessage();
    await t.report(wamid, 'failed', { errors: FREQUENCY_CAP });
    const failed = await t.messageIn(id, ['failed']);
    expect(failed).toMatchObject({
      retried_by_message_log_id: null,
      error_message: expect.stringMatching(/131049/),
    });
  });

  it('when a text goes to a customer who never wrote, then 422 OUTSIDE_SERVICE_WINDOW; once they write, it is a free SERVICE message', async () => {
    const phone = freshPhone();
    const text = { phone, message_type: 'text', data: { text: 'Your order ships today.' } };
    const refused = await t.send(text).expect(422);
    expect(refused.body.error.code).toBe('OUTSIDE_SERVICE_WINDOW');
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
    await t.inbound(phone, 'Where is my order?');
    await m.firstPublished('message.received', 'from', phone);
    const accepted = await t.send(text).expect(202);
    expect(accepted.body.data).toMatchObject({ conversation_category: 'SERVICE', cost: 0 });
    await t.messageIn(accepted.body.data.message_log_id as number, ['sent']);
    expect(m.upstream.sendsTo(phone)[0].body).toMatchObject({
      type: 'text',
      text: { body: 'Your order ships today.' },
    });
  });

  it('when a scheduled message falls due, then the scheduler releases it and it is sent once, not before its time', async () => {
    const phone = freshPhone();
    const at = new Date(Date.now() + 1500);
    const accepted = await t.send({ phone, scheduled_at: at.toISOString() }).expect(202);
    const id = accepted.body.data.message_log_id as number;
    expect((await t.message(id)).status).toBe('scheduled');
    const sent = await t.messageIn(id, ['sent']);
    expect(new Date(sent.sent_at as string).getTime()).toBeGreaterThanOrEqual(at.getTime());
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
  });

  it('when a scheduled message is cancelled, then it never goes out and a second cancel is 409', async () => {
    const phone = freshPhone();
    const accepted = await t
      .send({ phone, scheduled_at: new Date(Date.now() + 1000).toISOString() })
      .expect(202);
    const id = accepted.body.data.message_log_id as number;
    await t.api.post(`/api/v1/messages/${id}/cancel`).expect(200);
    const again = await t.api.post(`/api/v1/messages/${id}/cancel`).expect(409);
    expect(again.body.error).toMatchObject({
      code: 'MESSAGE_NOT_CANCELLABLE',
      details: { status: 'cancelled' },
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await t.message(id)).status).toBe('cancelled');
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
  });

  it('when another tenant asks for the message, then 404 MESSAGE_NOT_FOUND', async () => {
    const { id } = await sentMessage();
    const other = await connectTenant(m);
    expect((await other.api.get(`/api/v1/messages/${id}`).expect(404)).body.error.code).toBe(
      'MESSAGE_NOT_FOUND',
    );
  });
});
