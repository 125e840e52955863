import type { InboundStatusItem } from '@bm/contracts';
import { EXAMPLE_RATE_CARD } from '@bm/platform';
import type { MessageLog } from '../../src/domain/ports/message-log.port';
import {
  changeOf,
  inStatusOrder,
  lockSetOf,
  planStatusReports,
  type StatusReport,
} from '../../src/domain/lifecycle/status-reports';

/* The status reports' rules over a batch, without a database: what a batch locks, which report moves which
 * message, which settles a send whose answer never came, and which waits for its wamid. */

const NUMBER = '1555000111';

function message(over: Partial<MessageLog> = {}): MessageLog {
  return {
    id: 1,
    tenantId: 7,
    channelAccountId: 'acc-1',
    toPhone: '447700900123',
    toUserId: null,
    messageType: 'text',
    content: { text: 'hi' },
    templateCategory: null,
    conversationCategory: 'service',
    status: 'sent',
    providerMessageId: 'wamid.1',
    scheduledAt: null,
    sentAt: new Date('2026-11-29T10:00:00Z'),
    deliveredAt: null,
    readAt: null,
    failedAt: null,
    costAmount: 0,
    costCurrency: 'USD',
    errorCode: null,
    errorMessage: null,
    held: false,
    playedAt: null,
    pricing: null,
    autoRetryOnFrequencyCap: false,
    retryCount: 0,
    retryOfMessageLogId: null,
    retriedByMessageLogId: null,
    campaignId: null,
    campaignRecipientId: null,
    campaignRecipientAttempt: null,
    sendAttempts: 1,
    attemptStartedAt: null,
    createdAt: new Date('2026-11-29T09:59:59Z'),
    traceparent: null,
    ...over,
  };
}

function report(wamid: string, status: string, over: Partial<InboundStatusItem> = {}): StatusReport {
  return {
    item: {
      provider_message_id: wamid,
      status,
      occurred_at: '2026-11-29T10:00:05Z',
      errors: [],
      phone_number_id: NUMBER,
      ...over,
    } as InboundStatusItem,
  };
}

const numberOf = new Map([['acc-1', NUMBER]]);

describe('a batch of status reports', () => {
  it('when sent, delivered and read come together, then one message moves three times, one round each', () => {
    const m = message({ status: 'queued', sentAt: null });
    const plan = planStatusReports(
      [report('wamid.1', 'sent'), report('wamid.1', 'delivered'), report('wamid.1', 'read')],
      { locked: [m], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.rounds.map((r) => r.map((move) => move.status))).toEqual([['sent'], ['delivered'], ['read']]);
    expect(plan.rounds[1][0].event).toMatchObject({ status: 'delivered', previous_status: 'sent' });
    expect(plan.oneByOne).toEqual([]);
  });

  it('when a report comes late or twice, then it moves nothing and emits nothing', () => {
    const plan = planStatusReports(
      [report('wamid.1', 'read'), report('wamid.1', 'delivered'), report('wamid.1', 'read')],
      { locked: [message({ status: 'delivered' })], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.rounds.flat().map((m) => m.status)).toEqual(['read']);
  });

  it('when a repeated report finds its status reached, then its event is sent again, beside what the others move', () => {
    // A crash after the commit of `delivered` and before its event went out: the receipt comes again, with `read`.
    const delivered = message({ status: 'delivered', deliveredAt: new Date('2026-11-29T10:00:03Z') });
    const plan = planStatusReports(
      [{ ...report('wamid.1', 'delivered'), repeat: true }, report('wamid.1', 'read')],
      { locked: [delivered], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.rounds.flat().map((m) => m.status)).toEqual(['read']);
    expect(plan.again.map((e) => e.event)).toMatchObject([{ status: 'delivered', previous_status: 'sent' }]);
    // The same event as the one its move emitted: the dispatcher keeps one copy.
    const moved = planStatusReports(
      [report('wamid.1', 'delivered')],
      { locked: [message()], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.again[0].eventId).toBe(moved.rounds[0][0].eventId);

    // Not repeated, a late report sends nothing again; repeated, one of a status not reached sends nothing either.
    const late = planStatusReports(
      [
        report('wamid.1', 'delivered'),
        { ...report('wamid.1', 'sent'), repeat: true },
        report('wamid.1', 'read'),
      ],
      { locked: [message({ status: 'sent', providerMessageId: 'wamid.1' })], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(late.again.map((e) => e.event)).toMatchObject([{ status: 'sent', previous_status: 'queued' }]);
    // A failure beside it sends the batch's reports one by one through the status rules: the event goes again too.
    const failing = planStatusReports(
      [
        { ...report('wamid.1', 'delivered'), repeat: true },
        report('wamid.1', 'failed', { errors: [{ code: 131026, title: 'undeliverable' }] }),
      ],
      { locked: [delivered], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(failing.oneByOne).toHaveLength(2);
    expect(failing.again.map((e) => e.eventId)).toEqual([plan.again[0].eventId]);
    const notRepeated = planStatusReports(
      [report('wamid.1', 'delivered'), report('wamid.1', 'read')],
      { locked: [delivered], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(notRepeated.again).toEqual([]);
  });

  it('when a report fails its message, then its reports go one by one through the status rules', () => {
    const failed = report('wamid.1', 'failed', { errors: [{ code: 131026, title: 'undeliverable' }] });
    const plan = planStatusReports(
      [report('wamid.1', 'delivered'), failed],
      { locked: [message()], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.rounds).toEqual([]);
    expect(plan.oneByOne.map((r) => r.item.status)).toEqual(['delivered', 'failed']);
    expect(changeOf(failed.item)).toMatchObject({ status: 'failed', errorCode: 131026 });
  });

  it('when a report names a queued send of ours whose answer never came, then it gives it its wamid', () => {
    const queued = message({
      id: 9,
      status: 'queued',
      providerMessageId: null,
      sentAt: null,
      sendAttempts: 2,
    });
    const plan = planStatusReports(
      [report('wamid.9', 'delivered', { biz_opaque_callback_data: 'bm1:9:2' })],
      { locked: [queued], settled: [], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.reconciled).toMatchObject([{ id: 9, providerMessageId: 'wamid.9' }]);
    expect(plan.rounds).toMatchObject([
      [{ id: 9, status: 'delivered', expected: expect.arrayContaining(['sent']) }],
    ]);
    // Its send answer's time is not known: the number's reports are not taken as come past anything by it.
    expect(plan.reportedThrough).toEqual([]);
  });

  it('when the attempt is of another number, a later one or a superseded one, then nothing is settled by it', () => {
    const queued = message({ id: 9, status: 'queued', providerMessageId: null, sendAttempts: 1 });
    const found = { locked: [queued], settled: [], numberOf };
    const other = report('wamid.x', 'sent', { biz_opaque_callback_data: 'bm1:9:1', phone_number_id: '1999' });
    const later = report('wamid.y', 'sent', { biz_opaque_callback_data: 'bm1:9:2' });
    const none = report('wamid.z', 'sent');
    const plan = planStatusReports([other, later, none], found, EXAMPLE_RATE_CARD);
    expect(plan.reconciled).toEqual([]);
    expect(plan.pending.map((i) => i.provider_message_id)).toEqual(['wamid.x', 'wamid.y', 'wamid.z']);

    const twice = planStatusReports(
      [
        report('wamid.a', 'sent', { biz_opaque_callback_data: 'bm1:9:1' }),
        report('wamid.b', 'sent', { biz_opaque_callback_data: 'bm1:9:1' }),
      ],
      found,
      EXAMPLE_RATE_CARD,
    );
    expect(twice.reconciled.map((r) => r.providerMessageId)).toEqual(['wamid.a']);
    expect(twice.superseded).toMatchObject([{ messageLogId: 9, status: 'sent' }]);
  });

  it('when reports name settled messages, then they move nothing but still mark how far the number came', () => {
    const plan = planStatusReports(
      [report('wamid.1', 'sent')],
      { locked: [], settled: [message({ status: 'read' })], numberOf },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.rounds).toEqual([]);
    expect(plan.pending).toEqual([]);
    expect(plan.reportedThrough).toEqual([
      { channelAccountId: 'acc-1', sentAt: new Date('2026-11-29T10:00:00Z') },
    ]);
  });

  it('when a report is priced or played, then it marks its message; a held one is held no longer', () => {
    const pricing = { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' };
    const plan = planStatusReports(
      [report('wamid.1', 'delivered', { pricing }), report('wamid.2', 'played')],
      {
        locked: [message(), message({ id: 2, providerMessageId: 'wamid.2', status: 'read', held: true })],
        settled: [],
        numberOf,
      },
      EXAMPLE_RATE_CARD,
    );
    expect(plan.marks).toMatchObject([
      { id: 1, playedAt: null, priced: { pricing: { model: 'PMP', category: 'marketing' } } },
      { id: 2, playedAt: new Date('2026-11-29T10:00:05Z'), priced: null },
    ]);
  });

  it('locks each wamid in the statuses its reports can move it from, and keeps kept reports in status order', () => {
    expect(lockSetOf([report('w', 'delivered'), report('w', 'played')])).toEqual([
      { providerMessageId: 'w', movableFrom: ['scheduled', 'queued', 'sent'] },
    ]);
    expect(
      inStatusOrder([{ status: 'read' }, { status: 'sent' }, { status: 'failed' }]).map((r) => r.status),
    ).toEqual(['sent', 'read', 'failed']);
  });
});
