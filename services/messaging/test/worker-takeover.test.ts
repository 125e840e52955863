import { randomUUID } from 'node:crypto';
import { sendReportedNow, unfinishedClaim, useMessaging } from './factories/messaging';

/*
 * Issue 33, a worker that starts takes over at once: a claim names its worker, and a worker whose lease has lapsed
 * is dead to the others. Its claims are taken over as soon as that is seen, not after the longest call and a grace
 * (40 s by default, which these tests never reach): one it held for its throughput slot is sent again at once; one
 * it handed over as soon as its number's reports have come past it. A live worker's claims are left alone.
 */
describe('messaging alone: the claims of a worker whose lease lapsed', () => {
  const { m, t } = useMessaging({
    UPSTREAM_TIMEOUT_MS: '10000',
    ATTEMPT_GRACE_MS: '30000',
    REPORT_ORDER_MARGIN_MS: '500',
    UNKNOWN_OUTCOME_WINDOW_MS: '600000',
  });

  /** A message claimed a second ago by `worker`, waiting for its slot or handed over. */
  const claimedBy = (worker: string, awaitingSlot: boolean) =>
    unfinishedClaim(m, t, { startedAgo: '1 second', awaitingSlot, claimedBy: worker });
  const laterSendReported = () => sendReportedNow(t);

  const quietly = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('when a dead worker held a claim for its slot, then it is sent again at once, once, as the next attempt', async () => {
    const { id, phone } = await claimedBy(randomUUID(), true);
    expect(await t.messageIn(id, ['sent', 'failed'], 5_000)).toMatchObject({ status: 'sent' });
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
    expect(m.upstream.sendsTo(phone)[0].body.biz_opaque_callback_data).toBe(`bm1:${id}:2`);
  });

  it('when a dead worker handed a claim over, then nothing is decided until its number is reported past it, then it is sent again', async () => {
    const { id, phone } = await claimedBy(randomUUID(), false);
    await quietly(1_500);
    expect((await t.messageIn(id, ['queued'])).status).toBe('queued');
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
    await laterSendReported();
    expect(await t.messageIn(id, ['sent', 'failed'], 5_000)).toMatchObject({ status: 'sent' });
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
  });

  it('when the worker that holds a claim keeps its lease, then its claim is left alone', async () => {
    const live = randomUUID();
    await m.query(
      `INSERT INTO messaging.send_workers (id, lease_until) VALUES ($1, now() + interval '1 minute')`,
      [live],
    );
    const { id, phone } = await claimedBy(live, true);
    await laterSendReported();
    await quietly(1_500);
    expect((await t.messageIn(id, ['queued'])).status).toBe('queued');
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
    await m.query('DELETE FROM messaging.send_workers WHERE id = $1', [live]);
  });

  it("keeps this worker's own lease, renewed within its length", async () => {
    const rows = await m.query<{ ahead_ms: number }>(
      `SELECT extract(epoch FROM (lease_until - now())) * 1000 AS ahead_ms FROM messaging.send_workers
        WHERE lease_until > now()`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...rows.map((r) => Number(r.ahead_ms)))).toBeGreaterThan(5_000);
  });
});
