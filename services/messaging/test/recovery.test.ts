import { waitFor } from '@bm/platform/testing';
import { freshPhone, useMessaging } from './factories/messaging';

/*
 * The scheduler's crash-recovery passes. A message is left as a crashed worker or a lost command leaves it by
 * writing its row (scheduled far ahead first, so no worker takes it meanwhile); the passes must settle it.
 */
describe('messaging alone: recovery of stranded messages, abandoned attempts, unknown outcomes and early receipts', () => {
  const { m, t } = useMessaging({
    STRANDED_AFTER_MS: '1000',
    UPSTREAM_TIMEOUT_MS: '700',
    ATTEMPT_GRACE_MS: '300',
    UNKNOWN_OUTCOME_WINDOW_MS: '2500',
    // The option that never risks a duplicate (the default resends once): what these cases settle by.
    UNKNOWN_OUTCOME_POLICY: 'fail',
  });

  /** A message parked until 2031, then its row changed by `assignments` as the failure being simulated leaves it. */
  const leftBehind = async (assignments: string) => {
    const phone = freshPhone();
    const accepted = await t.send({ phone, scheduled_at: '2031-01-01T00:00:00Z' }).expect(202);
    const id = accepted.body.data.message_log_id as number;
    await m.query(
      `UPDATE messaging.message_logs SET status = 'queued', scheduled_at = NULL, ${assignments} WHERE id = $1`,
      [id],
    );
    return { id, phone };
  };
  /**
   * A worker killed mid-attempt: its first attempt started `startedAgo` and never finished. Past the window
   * (2.5 s) the scheduler settles it at once; within it, a receipt naming the attempt still may.
   */
  const abandonedAttempt = (awaitingSlot: boolean, startedAgo = '5 seconds') =>
    leftBehind(
      `send_attempts = 1, attempt_started_at = now() - interval '${startedAgo}', awaiting_slot = ${String(awaitingSlot)}`,
    );

  it('when a queued message lost its delivery command, then the scheduler gives it a new one and it is sent once', async () => {
    const { id, phone } = await leftBehind(`updated_at = now() - interval '1 minute'`);
    await t.messageIn(id, ['sent']);
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
  });

  it('when a worker died after recording its attempt and no receipt names it, then the message fails as unknown and is never sent twice', async () => {
    const { id, phone } = await abandonedAttempt(false);
    const failed = await t.messageIn(id, ['failed', 'sent']);
    expect(failed).toMatchObject({
      status: 'failed',
      error_message: expect.stringMatching(/outcome unknown/),
    });
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
  });

  it('when a worker died while its message awaited the throughput slot, then the message is sent, once', async () => {
    const { id, phone } = await abandonedAttempt(true);
    await t.messageIn(id, ['sent', 'failed']).then((found) => expect(found.status).toBe('sent'));
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
  });

  it('when a worker died in the call and a receipt names its attempt, then the message takes that wamid, from its own number only', async () => {
    const { id, phone } = await abandonedAttempt(false, '1 second');
    const callback = { biz_opaque_callback_data: `bm1:${id}:1` };
    await t.report(`wamid.foreign.${id}`, 'sent', { ...callback, phone_number_id: `9${t.phoneNumberId}` });
    await t.report(`wamid.reported.${id}`, 'sent', callback);
    const settled = await t.messageIn(id, ['sent', 'failed']);
    expect(settled).toMatchObject({ status: 'sent', provider_message_id: `wamid.reported.${id}` });
    expect(m.upstream.sendsTo(phone)).toHaveLength(0);
  });

  it('when the upstream never answers a written send and no receipt comes within the window, then the message fails as unknown after one send', async () => {
    const phone = freshPhone();
    m.upstream.script(phone, { hang: true });
    const id = (await t.send({ phone }).expect(202)).body.data.message_log_id as number;
    const failed = await t.messageIn(id, ['failed', 'sent'], 15_000);
    expect(failed).toMatchObject({
      status: 'failed',
      error_message: expect.stringMatching(/outcome unknown/),
    });
    expect(m.upstream.sendsTo(phone)).toHaveLength(1);
  });

  it('when a receipt arrives before the send was answered, then it is kept and applied once the wamid is recorded', async () => {
    const phone = freshPhone();
    const wamid = `wamid.early.${phone}`;
    let answer = () => {};
    m.upstream.script(phone, { wamid, release: new Promise<void>((resolve) => (answer = resolve)) });
    const id = (await t.send({ phone }).expect(202)).body.data.message_log_id as number;
    await waitFor(() => m.upstream.sendsTo(phone).length > 0, { what: 'send in flight' });
    await t.report(wamid, 'delivered');
    await waitFor(
      async () =>
        (
          await m.query('SELECT 1 FROM messaging.pending_status_reports WHERE provider_message_id = $1', [
            wamid,
          ])
        ).length > 0,
      { what: 'receipt kept' },
    );
    answer();
    const delivered = await t.messageIn(id, ['delivered']);
    expect(delivered.provider_message_id).toBe(wamid);
    expect(delivered.sent_at).not.toBeNull();
    const events = () => m.publishedWith('message.status_updated', 'message_log_id', id).map((e) => e.status);
    await waitFor(() => events().includes('delivered'), { what: 'delivered event' });
    expect(events()).toEqual(['sent', 'delivered']);
  });
});
