import { startTcpProxy, testEnv } from '@bm/platform/testing';
import { loadIngressConfig } from '../src/config';
import { useIngress } from './factories/ingress';
import { accountEntry, numberBody, statusReport, textMessage, upstreamId, wamid } from './factories/webhooks';

describe('status reports and customer messages go out before the answer; account-level items once per dedupe key', () => {
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
  /**
   * Bodies of the number until the instance at `url` splits one on receipt (stored with its outcome): its splitter
   * has looked the number's owner up (the instances' splitters share the pending bodies).
   */
  const warmUp = async (customer: string, url?: string) => {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const res = await ingress.post(bodyOf(customer, wamid(), wamid()), { url }).expect(200);
      const id = res.body.data.event_id as string;
      if ((await eventOf(id)).outcome !== 'pending') return;
      await ingress.splitEvent(id);
    }
    throw new Error('the number was never split on receipt');
  };
  const outboxRowsOf = (eventIds: string[]) =>
    ingress.countRows(
      `SELECT count(*) AS n FROM ingress.published_items WHERE inbound_event_id = ANY($1::text[])`,
      [eventIds],
    );
  const templateBody = (wabaId: string, name: string) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        accountEntry(wabaId, 1717000000, 'message_template_status_update', {
          event: 'APPROVED',
          message_template_id: 1689556908129835,
          message_template_name: name,
          message_template_language: 'en_US',
          reason: 'NONE',
        }),
      ],
    });

  it('when the upstream delivers the same receipts and message twice, then each delivery sends them before its 200, without an outbox or dedupe row, and the audit view names what went out', async () => {
    const [customer, messageId, statusId] = [upstreamId(), wamid(), wamid()];
    const raw = bodyOf(customer, messageId, statusId);
    // The number's owner is known from a first body: the receipts are split on receipt.
    await warmUp(customer);
    const answers = [await ingress.post(raw).expect(200), await ingress.post(raw).expect(200)];
    const ids = answers.map((a) => a.body.data.event_id as string);
    // Their consumers apply a repeated item once (a status never moves back; a message is kept by its id).
    await ingress.waitForPublished('message_id', messageId, 2);
    await ingress.waitForPublished('provider_message_id', statusId, 4);
    expect(await outboxRowsOf(ids)).toBe(0);
    for (const [n, id] of ids.entries()) {
      const event = await eventOf(id);
      expect(event).toMatchObject({
        outcome: 'processed',
        item_count: 3,
        published_count: 3,
        duplicate_count: 0,
        attempts: 1,
      });
      expect(event.items.map((i) => i.state)).toEqual(['published', 'published', 'published']);
      const sent = ingress.published.filter((p) => event.items.some((i) => i.item_event_id === p.messageId));
      expect(sent).toHaveLength(3);
      for (const item of event.items) expect(item.published_by_event_id).toBe(id);
      if (n === 1) expect(event.same_body_event_ids).toEqual([ids[0]]);
    }
  });

  it('when the broker is away, then the receipts are stored with their outbox rows and the 200 still means they will go out', async () => {
    const amqp = new URL(loadIngressConfig(testEnv()).AMQP_URL);
    const proxy = await startTcpProxy(amqp.hostname, Number(amqp.port || 5672));
    amqp.host = `127.0.0.1:${proxy.port}`;
    const cut = await ingress.start({ AMQP_URL: amqp.toString() });
    try {
      const customer = upstreamId();
      // A first body makes the number's owner known to this instance.
      await warmUp(customer, cut.url);
      // Its broker connection dropped: a publish now fails at once, or is never confirmed.
      proxy.cut();
      const statusId = wamid();
      const res = await ingress.post(bodyOf(customer, wamid(), statusId), { url: cut.url }).expect(200);
      const id = res.body.data.event_id as string;
      expect(await outboxRowsOf([id])).toBe(3);
      expect(await eventOf(id)).toMatchObject({ outcome: 'processed', published_count: 3 });
      // The relay of an instance the broker can reach sends them.
      await ingress.settle();
      expect(ingress.publishedWith('provider_message_id', statusId)).toHaveLength(2);
    } finally {
      await cut.stop();
      await proxy.close();
    }
  });

  it('when the upstream delivers the same template status twice, then it goes out once and the second delivery is a traceable duplicate', async () => {
    const [wabaId, name] = [upstreamId(), `order_update_${upstreamId()}`];
    const raw = templateBody(wabaId, name);
    const first = await ingress.post(raw).expect(200);
    await ingress.waitForPublished('name', name);
    const second = await ingress.post(raw).expect(200);
    await ingress.settle();
    expect(ingress.publishedWith('name', name)).toHaveLength(1);
    const again = await ingress.splitEvent(second.body.data.event_id as string);
    expect(again).toMatchObject({
      outcome: 'duplicate',
      item_count: 1,
      published_count: 0,
      duplicate_count: 1,
    });
    expect(again.same_body_event_ids).toEqual([first.body.data.event_id]);
    expect(again.items.map((i) => i.state)).toEqual(['duplicate']);
    expect(again.items[0].published_by_event_id).toBe(first.body.data.event_id);
    expect((await eventOf(first.body.data.event_id)).outcome).toBe('processed');
  });

  it('when five copies of a template status arrive at the same moment, then all are stored and it is published once', async () => {
    const [wabaId, name] = [upstreamId(), `order_update_${upstreamId()}`];
    const raw = templateBody(wabaId, name);
    const answers = await Promise.all(Array.from({ length: 5 }, () => ingress.post(raw)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    await ingress.settle();
    expect(ingress.publishedWith('name', name)).toHaveLength(1);
    const events = await Promise.all(answers.map((a) => ingress.splitEvent(a.body.data.event_id as string)));
    expect(events.map((e) => e.outcome).sort()).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'processed',
    ]);
  });
});
