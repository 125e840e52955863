import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { ADMIN, useIngress } from './factories/ingress';
import {
  contact,
  entry,
  envelope,
  messagesChange,
  numberBody,
  statusReport,
  textMessage,
  upstreamId,
  wamid,
  type Json,
} from './factories/webhooks';

/** The value of a series of `GET /metrics` (the first line of that name holding `labels`), 0 when absent. */
async function metric(url: string, name: string, labels = ''): Promise<number> {
  const text = (await request(url).get('/metrics').expect(200)).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const randomText = (length: number) =>
  Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join(
    '',
  );

describe('one bad item never blocks the others of a webhook body', () => {
  const ingress = useIngress();

  const oneSkipped = { outcome: 'processed', item_count: 1, published_count: 1, skipped_count: 1 };
  /** Posts a body of two items and waits for its split, which publishes one and skips the other. */
  const splitWithOneSkipped = async (body: Json) => {
    const res = await ingress.postJson(body).expect(200);
    const event = await ingress.splitEvent(res.body.data.event_id as string);
    expect(event).toMatchObject(oneSkipped);
    return event;
  };

  it('when a body holds one tenant’s status and another tenant’s customer text with NUL and an unpaired surrogate, then both go out, the text with U+FFFD, and the audit log keeps the body as it came', async () => {
    const [numberA, numberB, customer, statusId, messageId] = [
      upstreamId(),
      upstreamId(),
      upstreamId(),
      wamid(),
      wamid(),
    ];
    ingress.messaging.register(numberA);
    ingress.messaging.register(numberB);
    const replacedBefore = await metric(ingress.url, 'bm_ingress_texts_replaced_total');
    const body = envelope(
      entry(
        upstreamId(),
        messagesChange(numberA, { statuses: [statusReport(statusId, 'delivered', customer)] }),
      ),
      entry(
        upstreamId(),
        messagesChange(numberB, {
          contacts: [contact(customer, 'Zo\ud800e')],
          messages: [textMessage(customer, 'hi\u0000 there \udc00!', '1749416383', messageId)],
        }),
      ),
    );
    const raw = JSON.stringify(body);
    expect(raw).toContain('\\u0000');
    expect(raw).toContain('\\ud800');

    const res = await ingress.post(raw).expect(200);
    const event = await ingress.splitEvent(res.body.data.event_id as string);

    expect(event).toMatchObject({
      outcome: 'processed',
      item_count: 2,
      published_count: 2,
      skipped_count: 0,
    });
    expect(event.raw_body).toBe(raw);
    const [status] = await ingress.waitForPublished('provider_message_id', statusId);
    expect(status.payload).toMatchObject({ status: 'delivered', phone_number_id: numberA });
    const [message] = await ingress.waitForPublished('message_id', messageId);
    expect(message.payload).toMatchObject({
      text: 'hi\ufffd there \ufffd!',
      name: 'Zo\ufffde',
      from: customer,
    });
    // Two strings: the name and the text.
    expect(await metric(ingress.url, 'bm_ingress_texts_replaced_total')).toBe(replacedBefore + 2);
  });

  it('when one item cannot be stored (an id too long to index), then it alone is skipped with its reason and the others go out', async () => {
    const [number, customer, goodId, tooLong] = [
      upstreamId(),
      upstreamId(),
      wamid(),
      `wamid.${randomText(6000)}`,
    ];
    ingress.messaging.register(number);
    const skippedBefore = await metric(ingress.url, 'bm_ingress_items_skipped_total', 'stage="publish"');
    const event = await splitWithOneSkipped(
      numberBody(number, {
        messages: [
          textMessage(customer, 'first', '1749416383', tooLong),
          textMessage(customer, 'second', '1749416384', goodId),
        ],
      }),
    );

    expect(event.skipped).toEqual([
      {
        path: 'entry[0].changes[0].value.messages[0]',
        reason: expect.stringMatching(/^not published: .*index/),
      },
    ]);
    expect(event.items.map((i) => [i.path, i.state])).toEqual([
      ['entry[0].changes[0].value.messages[0]', 'skipped'],
      ['entry[0].changes[0].value.messages[1]', 'published'],
    ]);
    await ingress.waitForPublished('message_id', goodId);
    expect(await metric(ingress.url, 'bm_ingress_items_skipped_total', 'stage="publish"')).toBe(
      skippedBefore + 1,
    );
  });

  it('when the number is known already and bodies arriving together hold an item that cannot be stored and text with NUL, then the bad item alone is skipped and everything else goes out', async () => {
    const [number, customer, warmId, goodId, tooLong, nulId] = [
      upstreamId(),
      upstreamId(),
      wamid(),
      wamid(),
      `wamid.${randomText(6000)}`,
      wamid(),
    ];
    ingress.messaging.register(number);
    // Its owner looked up once: the next bodies of the number can be split as they arrive.
    const warm = await ingress
      .postJson(numberBody(number, { messages: [textMessage(customer, 'warm', '1749416380', warmId)] }))
      .expect(200);
    await ingress.splitEvent(warm.body.data.event_id as string);
    const others = [wamid(), wamid(), wamid(), wamid()];

    const answers = await Promise.all([
      ingress.postJson(
        numberBody(number, {
          messages: [
            textMessage(customer, 'first', '1749416383', tooLong),
            textMessage(customer, 'second', '1749416384', goodId),
          ],
        }),
      ),
      ingress.postJson(
        numberBody(number, { messages: [textMessage(customer, 'nul\u0000here', '1749416385', nulId)] }),
      ),
      ...others.map((id) =>
        ingress.postJson(
          numberBody(number, { messages: [textMessage(customer, 'other', '1749416386', id)] }),
        ),
      ),
    ]);

    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const [poisoned, ...rest] = await Promise.all(
      answers.map((a) => ingress.splitEvent(a.body.data.event_id as string)),
    );
    expect(poisoned).toMatchObject(oneSkipped);
    expect(poisoned.items.map((i) => [i.path, i.state])).toEqual([
      ['entry[0].changes[0].value.messages[0]', 'skipped'],
      ['entry[0].changes[0].value.messages[1]', 'published'],
    ]);
    for (const event of rest) {
      expect(event).toMatchObject({ outcome: 'processed', item_count: 1, published_count: 1 });
    }
    const [nul] = await ingress.waitForPublished('message_id', nulId);
    expect(nul.payload).toMatchObject({ text: 'nul\ufffdhere' });
    for (const id of [goodId, ...others]) await ingress.waitForPublished('message_id', id);
    await ingress.settle();
    for (const id of [goodId, nulId, ...others])
      expect(ingress.publishedWith('message_id', id)).toHaveLength(1);
  });

  it('when a customer message’s `from` has no digit, then the contract its consumers use skips it with the reason and nothing of it is published', async () => {
    const [number, customer, noDigitId, goodId] = [upstreamId(), upstreamId(), wamid(), wamid()];
    ingress.messaging.register(number);
    const skippedBefore = await metric(ingress.url, 'bm_ingress_items_skipped_total', 'stage="split"');
    const event = await splitWithOneSkipped(
      numberBody(number, {
        messages: [
          textMessage('<PHONE_NUMBER>', 'placeholder', '1749416383', noDigitId),
          textMessage(customer, 'real', '1749416384', goodId),
        ],
      }),
    );

    expect(event.skipped).toEqual([
      { path: 'entry[0].changes[0].value.messages[0]', reason: expect.stringMatching(/from.*digits/) },
    ]);
    await ingress.waitForPublished('message_id', goodId);
    await ingress.settle();
    expect(ingress.publishedWith('message_id', noDigitId)).toEqual([]);
    expect(
      await metric(ingress.url, 'bm_ingress_items_skipped_total', 'stage="split"'),
    ).toBeGreaterThanOrEqual(skippedBefore + 1);
  });

  it('when messaging refuses to look a number up (an id no URL can carry), then that number’s items are skipped and the others go out', async () => {
    const [known, customer, goodId, refusedId] = [upstreamId(), upstreamId(), wamid(), wamid()];
    const huge = `1${'2'.repeat(20_000)}`;
    ingress.messaging.register(known);
    const event = await splitWithOneSkipped(
      envelope(
        entry(
          upstreamId(),
          messagesChange(huge, { messages: [textMessage(customer, 'lost?', '1749416383', refusedId)] }),
        ),
        entry(
          upstreamId(),
          messagesChange(known, { messages: [textMessage(customer, 'fine', '1749416384', goodId)] }),
        ),
      ),
    );

    expect(event.skipped).toEqual([
      {
        path: 'entry[0].changes[0].value.messages[0]',
        reason: expect.stringMatching(/refused the account lookup/),
      },
    ]);
    await ingress.waitForPublished('message_id', goodId);
    expect(ingress.publishedWith('message_id', refusedId)).toEqual([]);
  });
});

describe('a body that keeps failing for a reason that will not change', () => {
  // The main instance only stores; the splitter below gives a body up after its second such failure.
  const ingress = useIngress({ workers: false });

  beforeAll(async () => {
    await ingress.start({ INGRESS_FAIL_AFTER_ATTEMPTS: '2' });
    // A fault no retry can fix: the database refuses to record a split of bodies holding a marker.
    await ingress.db.query(`CREATE FUNCTION ingress.refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.outcome <> 'pending' AND NEW.outcome <> 'failed' AND NEW.raw_body LIKE '%refuse-this-body%' THEN
          RAISE EXCEPTION 'refused by the test';
        END IF;
        RETURN NEW;
      END $$`);
    await ingress.db.query(`CREATE TRIGGER refuse_marked BEFORE UPDATE ON ingress.inbound_events
      FOR EACH ROW EXECUTE FUNCTION ingress.refuse_marked()`);
  });

  it('when splitting fails the same way again and again, then the event is marked failed, counted, no longer retried, and a reprocess once fixed publishes it', async () => {
    const [number, customer, messageId] = [upstreamId(), upstreamId(), wamid()];
    ingress.messaging.register(number);
    const failedBefore = await metric(ingress.url, 'bm_ingress_inbound_events_failed_total');
    const res = await ingress
      .postJson(
        numberBody(number, {
          messages: [textMessage(customer, 'refuse-this-body', '1749416383', messageId)],
        }),
      )
      .expect(200);
    const id = res.body.data.event_id as string;
    const failed = await ingress.splitEvent(id);

    expect(failed).toMatchObject({ outcome: 'failed', attempts: 2, last_error: 'refused by the test' });
    expect(failed.processed_at).not.toBeNull();
    expect(await metric(ingress.url, 'bm_ingress_inbound_events_failed_total')).toBe(failedBefore + 1);
    expect(await metric(ingress.url, 'bm_ingress_inbound_events_failed')).toBeGreaterThanOrEqual(1);
    const listed = await request(ingress.url)
      .get('/admin/v1/inbound-events?outcome=failed')
      .set(ADMIN)
      .expect(200);
    expect((listed.body.data.events as Array<{ event_id: string }>).map((e) => e.event_id)).toContain(id);
    // Not retried: the attempts stay where they are over several splitter passes.
    await waitFor(
      async () =>
        (await ingress.eventOf(id)).attempts === 2 && Date.now() > Date.parse(failed.processed_at!) + 3_000,
      {
        what: 'three seconds without a retry',
        timeoutMs: 10_000,
      },
    );
    expect(ingress.publishedWith('message_id', messageId)).toEqual([]);

    await ingress.db.query('DROP TRIGGER refuse_marked ON ingress.inbound_events');
    const again = await request(ingress.url)
      .post(`/admin/v1/inbound-events/${id}/reprocess`)
      .set(ADMIN)
      .expect(200);
    expect(again.body.data).toMatchObject({ outcome: 'processed', published_count: 1 });
    await ingress.waitForPublished('message_id', messageId);
  });
});
