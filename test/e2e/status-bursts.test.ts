import { waitFor } from '@bm/platform/testing';
import { collectEvents, inboundItem, publishInbound, statusReport } from '../support/events';
import { readMessage, sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('bursts of delivery receipts, applied in batches', () => {
  let stack: Stack;
  let t: TenantFixture;
  let events: Awaited<ReturnType<typeof collectEvents>>;

  beforeAll(async () => {
    stack = await startStack();
    t = await createTenant(stack);
    events = await collectEvents(stack, ['message.status_updated']);
  });
  afterAll(() => stack.stop());

  const statusEvents = (id: number) =>
    events
      .filter((e) => e.payload.message_log_id === id)
      .map((e) => ({ status: e.payload.status, previous: e.payload.previous_status }));

  it('when receipts of many messages arrive at once, out of order and repeated, then each message moves forward only and each change is emitted once', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => sendTemplate(stack, t)));
    const sent = await Promise.all(ids.map((id) => waitForStatus(stack, t, id, ['sent'])));
    const wamids = sent.map((m) => m.provider_message_id as string);
    const publishAll = (receipts: Array<{ wamid: string; status: string }>) =>
      Promise.all(
        receipts.map((r) => publishInbound(stack, 'inbound.status', statusReport(t, r.wamid, r.status))),
      );
    // One receipt per message: they share batches.
    await publishAll(wamids.map((wamid) => ({ wamid, status: 'delivered' })));
    for (const id of ids) {
      await waitFor(async () => (await readMessage(stack, t, id)).status === 'delivered', {
        what: `${id} delivered`,
      });
    }
    // Then read and a late delivered, in either order, every receipt twice: several receipts of one message.
    await publishAll(
      wamids.flatMap((wamid, i) => {
        const order = i % 2 === 0 ? ['delivered', 'read'] : ['read', 'delivered'];
        return [...order, ...order].map((status) => ({ wamid, status }));
      }),
    );

    for (const id of ids) {
      await waitFor(async () => (await readMessage(stack, t, id)).status === 'read', { what: `${id} read` });
    }
    await waitFor(() => ids.every((id) => statusEvents(id).some((e) => e.status === 'read')), {
      what: 'read events',
    });
    for (const id of ids) {
      const emitted = statusEvents(id);
      const statuses = emitted.map((e) => e.status as string);
      expect(statuses).toEqual(['sent', 'delivered', 'read']);
      // Each event names the status it moved from: the one the previous event moved to.
      emitted.slice(1).forEach((e, i) => expect(e.previous).toBe(emitted[i].status));
    }
  });

  it('when a receipt applied before comes again (a crash lost its event) with a later one of its message, then its event is sent again and the later one moves it', async () => {
    const [id, ...others] = await Promise.all([1, 2, 3].map(() => sendTemplate(stack, t)));
    const [wamid, ...otherWamids] = (
      await Promise.all([id, ...others].map((m) => waitForStatus(stack, t, m, ['sent'])))
    ).map((m) => m.provider_message_id as string);
    await publishInbound(stack, 'inbound.status', statusReport(t, wamid, 'delivered'));
    await waitFor(() => statusEvents(id).some((e) => e.status === 'delivered'), { what: 'delivered event' });
    // The broker's redelivery after a crash between the commit and the event: flagged. The other messages' receipts
    // take the first two batches (two apply at once), and the two of this message wait together for the next one,
    // where `read` has the message locked rather than read as settled.
    await publishInbound(
      stack,
      'inbound.statuses',
      {
        statuses: [
          ...otherWamids.map((w) => statusReport(t, w, 'delivered')),
          statusReport(t, wamid, 'delivered'),
          statusReport(t, wamid, 'read'),
        ].map(inboundItem),
      },
      // The retry policy's second attempt.
      { 'x-bm-attempt': 2 },
    );
    await waitFor(() => statusEvents(id).some((e) => e.status === 'read'), { what: 'read event' });
    const delivered = events.filter(
      (e) => e.payload.message_log_id === id && e.payload.status === 'delivered',
    );
    expect(delivered).toHaveLength(2);
    // The same event: one id, so the dispatcher and campaign keep one copy.
    expect(new Set(delivered.map((e) => e.payload.event_id)).size).toBe(1);
    expect(delivered[1].payload).toMatchObject({ previous_status: 'sent' });
  });

  it('when a burst mixes receipts of known messages with one whose send is not recorded yet, then the known are applied and the other is kept for its send', async () => {
    const id = await sendTemplate(stack, t);
    const { provider_message_id: wamid } = await waitForStatus(stack, t, id, ['sent']);
    const notYet = `wamid.not-yet-recorded.${id}`;
    await Promise.all([
      publishInbound(stack, 'inbound.status', statusReport(t, notYet, 'delivered')),
      publishInbound(stack, 'inbound.status', statusReport(t, wamid as string, 'delivered')),
      publishInbound(stack, 'inbound.status', statusReport(t, notYet, 'read')),
    ]);
    await waitFor(async () => (await readMessage(stack, t, id)).status === 'delivered', {
      what: 'delivered',
    });
    const kept = await waitFor(
      async () => {
        const rows: Array<{ status: string }> = await stack.messaging[0].deps.dataSource.query(
          'SELECT status FROM messaging.pending_status_reports WHERE provider_message_id = $1 ORDER BY status',
          [notYet],
        );
        return rows.length === 2 ? rows : undefined;
      },
      { what: 'receipts kept' },
    );
    expect(kept.map((r) => r.status)).toEqual(['delivered', 'read']);
  });
});
