import { freshPhone, useMessaging } from './factories/messaging';

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

  /** A message whose first attempt a killed worker started `startedAgo` and never finished. */
  const claimedByADeadWorker = async (startedAgo: string) => {
    const phone = freshPhone();
    const accepted = await t.send({ phone, scheduled_at: '2031-01-01T00:00:00Z' }).expect(202);
    const id = accepted.body.data.message_log_id as number;
    await m.query(
      `UPDATE messaging.message_logs SET status = 'queued', scheduled_at = NULL, send_attempts = 1,
              attempt_started_at = now() - interval '${startedAgo}', awaiting_slot = false WHERE id = $1`,
      [id],
    );
    return { id, phone };
  };

  /** A send of the same number, answered now, and its `sent` report. */
  const laterSendReported = async () => {
    const id = (await t.send({ phone: freshPhone() }).expect(202)).body.data.message_log_id as number;
    const sent = await t.messageIn(id, ['sent']);
    await t.report(sent.provider_message_id as string, 'sent');
    await t.messageIn(id, ['sent']);
  };

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
