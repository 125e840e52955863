import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { collectEvents, inboundText, publishInbound, statusReport } from '../support/events';
import { readMessage, sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('message statuses, the service window and the frequency-cap retry', () => {
  let stack: Stack;
  let t: TenantFixture;
  let events: Awaited<ReturnType<typeof collectEvents>>;

  beforeAll(async () => {
    stack = await startStack({ messagingEnv: { FREQUENCY_CAP_RETRY_DELAY_MS: '1500' } });
    t = await createTenant(stack);
    events = await collectEvents(stack, ['message.status_updated', 'message.received']);
  });
  afterAll(() => stack.stop());

  const message = (id: number) => readMessage(stack, t, id);
  const sendOne = (body: Record<string, unknown> = {}) => sendTemplate(stack, t, body);
  const sentMessage = (id: number) => waitForStatus(stack, t, id, ['sent']);
  const statusEvents = (id: number) =>
    events
      .filter((e) => e.routingKey === 'message.status_updated' && e.payload.message_log_id === id)
      .map((e) => e.payload.status);

  it('when reports arrive out of order and twice, then the status only moves forward and each change is emitted once', async () => {
    const id = await sendOne();
    const sent = await sentMessage(id);
    const wamid = sent.provider_message_id as string;
    await publishInbound(stack, 'inbound.status', statusReport(t, wamid, 'read'));
    await waitFor(async () => (await message(id)).status === 'read', { what: 'read' });
    for (const status of ['delivered', 'sent', 'read', 'delivered']) {
      await publishInbound(stack, 'inbound.status', statusReport(t, wamid, status));
    }
    await publishInbound(
      stack,
      'inbound.status',
      statusReport(t, wamid, 'failed', [{ code: 131026, title: 'Undeliverable' }]),
    );
    // A marker report on another message tells us the ones above were all consumed.
    const marker = await sendOne();
    const markerWamid = (await sentMessage(marker)).provider_message_id as string;
    await publishInbound(stack, 'inbound.status', statusReport(t, markerWamid, 'delivered'));
    await waitFor(async () => (await message(marker)).status === 'delivered', { what: 'marker delivered' });
    expect((await message(id)).status).toBe('read');
    await waitFor(() => statusEvents(id).length >= 2, { what: 'events' });
    expect(statusEvents(id)).toEqual(['sent', 'read']);
  });

  it('when a failed report names an upstream code, then the message fails with an error_message naming it', async () => {
    const id = await sendOne();
    const wamid = (await sentMessage(id)).provider_message_id as string;
    await publishInbound(
      stack,
      'inbound.status',
      statusReport(t, wamid, 'failed', [{ code: 131026, title: 'Message undeliverable' }]),
    );
    const failed = await waitFor(
      async () => {
        const m = await message(id);
        return m.status === 'failed' ? m : undefined;
      },
      { what: 'failed' },
    );
    expect(failed.error_message).toMatch(/131026/);
    await publishInbound(stack, 'inbound.status', statusReport(t, wamid, 'delivered'));
    await new Promise((r) => setTimeout(r, 300));
    expect((await message(id)).status).toBe('failed');
  });

  it('when the customer writes first, then a text within 24 h is accepted as SERVICE and sent', async () => {
    const phone = randomPhone();
    await publishInbound(stack, 'inbound.message', inboundText(t, phone, 'Hello, where is my order?'));
    await waitFor(() => events.some((e) => e.routingKey === 'message.received' && e.payload.from === phone), {
      what: 'received',
    });
    const res = await request(stack.gatewayUrl)
      .post('/api/v1/messages/send')
      .set(t.auth)
      .send({
        channel_account_id: t.channelAccountId,
        phone,
        message_type: 'text',
        data: { text: 'مرحبا! Your order ships today.' },
      })
      .expect(202);
    expect(res.body.data).toEqual({
      status: 'queued',
      message_log_id: expect.any(Number),
      conversation_category: 'SERVICE',
      cost: 0,
      scheduled_at: null,
    });
    await sentMessage(res.body.data.message_log_id as number);
  });

  it('when 131049 fails a message that opted in, then one retry is scheduled and a failing retry is not retried again', async () => {
    const id = await sendOne({ auto_retry_on_frequency_cap: true });
    const wamid = (await sentMessage(id)).provider_message_id as string;
    const frequencyCap = [
      { code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' },
    ];
    await publishInbound(stack, 'inbound.status', statusReport(t, wamid, 'failed', frequencyCap));
    const original = await waitFor(
      async () => {
        const m = await message(id);
        return m.retried_by_message_log_id ? m : undefined;
      },
      { what: 'retry link' },
    );
    expect(original.status).toBe('failed');
    const retryId = original.retried_by_message_log_id as number;
    const retry = await message(retryId);
    expect(retry).toMatchObject({
      status: 'scheduled',
      retry_count: 1,
      retry_of_message_log_id: id,
      retried_by_message_log_id: null,
    });
    const retryWamid = (await sentMessage(retryId)).provider_message_id as string;
    await publishInbound(stack, 'inbound.status', statusReport(t, retryWamid, 'failed', frequencyCap));
    await waitFor(async () => (await message(retryId)).status === 'failed', { what: 'retry failed' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await message(retryId)).retried_by_message_log_id).toBeNull();
    const list = await request(stack.gatewayUrl)
      .get(`/api/v1/messages?to_phone=${String(retry.to_phone)}`)
      .set(t.auth)
      .expect(200);
    expect(list.body.data.messages).toHaveLength(2);
  });
});
