import { sendReportedNow, unfinishedClaim, useMessaging } from './factories/messaging';

/*
 * Issue 33, a crash costs seconds: a send a dead worker had claimed (attempt started, no answer recorded) is settled
 * from the upstream's own evidence. The upstream reports what it took within seconds; once reports of the same
 * number have come past the claim (a send answered more than the longest call and REPORT_ORDER_MARGIN_MS after it
 * started has been reported) and none named it, it was never taken: it is sent again at once. Without any report of
 * the number, nothing is decided before the window. The claim is written as a killed worker leaves it.
 */
describe('messaging alone: sends a dead worker claimed, settled by their number reports', () => {
  const { m, t } = useMessaging({
    UPSTREAM_TIMEOUT_MS: '700',
    REPORT_ORDER_MARGIN_MS: '500',
    ATTEMPT_GRACE_MS: '300',
    UNKNOWN_OUTCOME_WINDOW_MS: '600000',
  });

  const claimedByADeadWorker = (startedAgo: string) => unfinishedClaim(m, t, { startedAgo });
  const laterSendReported = () => sendReportedNow(t);

  it("when no report of the claim's number has come past it, then nothing is decided: it is neither sent nor failed", async () => {
    const { id, phone } = await claimedByADeadWorker('3 seconds');
    await new Promise((r) => setTimeout(r, 2000));
    expect((await t.messageIn(id, ['queued'])).status).toBe('queued');
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
  });

  it('when reports of later sends of its number came and none named it, then it is sent again at once, once', async () => {
    const { id, phone } = await claimedByADeadWorker('3 seconds');
    await laterSendReported();
    const sent = await t.messageIn(id, ['sent', 'failed'], 5_000);
    expect(sent).toMatchObject({ status: 'sent', error_message: null });
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
    // Its next attempt went: a report naming the dead worker's attempt can no longer be taken for it.
    expect(m.upstream.sendsTo(phone)[0].body.biz_opaque_callback_data).toBe(`bm1:${id}:2`);
  });

  it('when its number was last reported for a send answered before the claim could have been taken, then it waits', async () => {
    await laterSendReported();
    const { id, phone } = await claimedByADeadWorker('0 seconds');
    await new Promise((r) => setTimeout(r, 2000));
    expect((await t.messageIn(id, ['queued'])).status).toBe('queued');
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
  });
});
