import { useIngress } from './factories/ingress';
import { numberBody, statusReport, textMessage, upstreamId, wamid } from './factories/webhooks';

describe('each item is published once, however often and however concurrently it arrives', () => {
  const phoneNumberId = upstreamId();
  const ingress = useIngress({ numbers: [phoneNumberId] });

  const bodyOf = (customer: string, messageId: string, statusId: string) =>
    JSON.stringify(
      numberBody(phoneNumberId, {
        messages: [textMessage(customer, 'Where is my order?', '1749416383', messageId)],
        statuses: [statusReport(statusId, 'delivered', customer), statusReport(statusId, 'read', customer)],
      }),
    );
  const eventOf = (id: string) => ingress.eventOf(id);

  it('when the upstream delivers the same body twice, then its items go out once and the second delivery is a traceable duplicate', async () => {
    const [customer, messageId, statusId] = [upstreamId(), wamid(), wamid()];
    const raw = bodyOf(customer, messageId, statusId);
    const first = await ingress.post(raw).expect(200);
    await ingress.waitForPublished('provider_message_id', statusId, 2);
    const second = await ingress.post(raw).expect(200);
    await ingress.settle();
    expect(ingress.publishedWith('message_id', messageId)).toHaveLength(1);
    expect(ingress.publishedWith('provider_message_id', statusId)).toHaveLength(2);
    const again = await eventOf(second.body.data.event_id);
    expect(again).toMatchObject({
      outcome: 'duplicate',
      item_count: 3,
      published_count: 0,
      duplicate_count: 3,
    });
    expect(again.same_body_event_ids).toEqual([first.body.data.event_id]);
    expect(again.items.map((i) => i.state)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect(again.items[0].published_by_event_id).toBe(first.body.data.event_id);
    expect((await eventOf(first.body.data.event_id)).outcome).toBe('processed');
  });

  it('when five copies arrive at the same moment, then all are stored and each item is published once', async () => {
    const [customer, messageId, statusId] = [upstreamId(), wamid(), wamid()];
    const raw = bodyOf(customer, messageId, statusId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => ingress.post(raw)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    await ingress.settle();
    expect(ingress.publishedWith('message_id', messageId)).toHaveLength(1);
    expect(
      ingress
        .publishedWith('provider_message_id', statusId)
        .map((p) => p.payload.status)
        .sort(),
    ).toEqual(['delivered', 'read']);
    const events = await Promise.all(answers.map((a) => eventOf(a.body.data.event_id as string)));
    expect(events.map((e) => e.outcome).sort()).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'processed',
    ]);
  });

  it('when the same report comes again inside a different batch, then only the new items of that batch go out', async () => {
    const [customer, statusId, later] = [upstreamId(), wamid(), wamid()];
    const report = statusReport(statusId, 'sent', customer);
    const single = await ingress.postJson(numberBody(phoneNumberId, { statuses: [report] })).expect(200);
    await ingress.splitEvent(single.body.data.event_id as string);
    const batch = numberBody(phoneNumberId, { statuses: [report, statusReport(later, 'sent', customer)] });
    const res = await ingress.postJson(batch).expect(200);
    await ingress.settle();
    expect(ingress.publishedWith('provider_message_id', statusId)).toHaveLength(1);
    expect(ingress.publishedWith('provider_message_id', later)).toHaveLength(1);
    expect(await eventOf(res.body.data.event_id)).toMatchObject({
      outcome: 'processed',
      published_count: 1,
      duplicate_count: 1,
    });
  });
});
