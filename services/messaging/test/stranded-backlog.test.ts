import { freshPhone, useMessaging } from './factories/messaging';

/**
 * The stranded sweep tells a lost delivery command from one that waits behind a backlog (issue 33): a queued
 * message gets a new command only once the delivery queue has been seen drained after it was last touched. New
 * commands for messages that only wait would lengthen the backlog they wait behind (every queued message's command
 * again every STRANDED_AFTER_MS, after an outage).
 */
describe('messaging alone: stranded messages behind a backlog', () => {
  // One delivery at a time, and a stranded message after a second: a held send makes a backlog at once.
  const { m, t } = useMessaging({ STRANDED_AFTER_MS: '1000', SEND_CONCURRENCY: '1' });

  /** The deliver commands published for a message (alone, or among a batch command's messages). */
  const commandsFor = (id: number) =>
    m.published.filter(
      (p) =>
        p.routingKey === 'messaging.deliver' &&
        (p.payload.message_log_id === id ||
          (p.payload.messages as Array<{ id: number }> | undefined)?.some((x) => x.id === id)),
    ).length;

  it('when queued messages wait behind a held send, then they get no second command, and each goes once', async () => {
    const held = freshPhone();
    let release!: () => void;
    m.upstream.script(held, {
      wamid: `wamid.held.${held}`,
      release: new Promise<void>((r) => (release = r)),
    });
    const first = (await t.send({ phone: held }).expect(202)).body.data.message_log_id as number;
    await new Promise((r) => setTimeout(r, 300));
    const waiting = [freshPhone(), freshPhone(), freshPhone()];
    const ids: number[] = [];
    for (const phone of waiting) ids.push((await t.send({ phone }).expect(202)).body.data.message_log_id);
    // A message whose command was lost a minute ago, parked behind the same backlog.
    const lost = freshPhone();
    const parked = (await t.send({ phone: lost, scheduled_at: '2031-01-01T00:00:00Z' }).expect(202)).body.data
      .message_log_id as number;
    await m.query(
      `UPDATE messaging.message_logs SET status = 'queued', scheduled_at = NULL,
              updated_at = now() - interval '1 minute' WHERE id = $1`,
      [parked],
    );

    // Three stranded ages pass while the queue holds their commands.
    await new Promise((r) => setTimeout(r, 3500));
    for (const id of ids) expect(commandsFor(id)).toBe(1);
    expect(commandsFor(parked)).toBe(0);
    expect(await t.message(ids[0])).toMatchObject({ status: 'queued' });

    release();
    await t.messageIn(first, ['sent']);
    for (const id of ids) await t.messageIn(id, ['sent']);
    // Once the queue drained, the lost command is seen as lost: a new one, and the message goes.
    await t.messageIn(parked, ['sent']);
    for (const phone of [held, ...waiting, lost]) expect(m.upstream.sendsTo(phone)).toHaveLength(1);
    for (const id of ids) expect(commandsFor(id)).toBe(1);
  });
});
