import request from 'supertest';
import { ulid } from 'ulidx';
import { ADMIN, useIngress } from './factories/ingress';
import { numberBody, statusReport, textMessage, upstreamId, wamid } from './factories/webhooks';

describe('the inbound audit API', () => {
  const ingress = useIngress();

  const admin = (path: string) => request(ingress.url).get(path).set(ADMIN);

  it('when a number is unknown to messaging, then its items are kept back, visible as unroutable, and a reprocess once it is connected publishes them once', async () => {
    const [unknown, customer, messageId, statusId] = [upstreamId(), upstreamId(), wamid(), wamid()];
    const body = numberBody(unknown, {
      messages: [textMessage(customer, 'anyone there?', '1749416383', messageId)],
      statuses: [statusReport(statusId, 'delivered', customer)],
    });
    const res = await ingress.postJson(body).expect(200);
    const id = res.body.data.event_id as string;
    const kept = await ingress.splitEvent(id);
    expect(kept).toMatchObject({
      outcome: 'unroutable',
      item_count: 2,
      published_count: 0,
      unroutable_count: 2,
      unroutable_phone_number_ids: [unknown],
    });
    expect(kept.items.map((i) => i.state)).toEqual(['unroutable', 'unroutable']);
    const listed = await admin('/admin/v1/inbound-events?outcome=unroutable&per_page=100').expect(200);
    const events = listed.body.data.events as Array<{ event_id: string }>;
    expect(events.map((e) => e.event_id)).toContain(id);

    ingress.messaging.register(unknown);
    const reprocess = () => request(ingress.url).post(`/admin/v1/inbound-events/${id}/reprocess`).set(ADMIN);
    const first = await reprocess().expect(200);
    expect(first.body.data).toMatchObject({
      event_id: id,
      outcome: 'processed',
      published_count: 2,
      unroutable_count: 0,
    });
    const again = await reprocess().expect(200);
    expect(again.body.data).toMatchObject({ outcome: 'processed', published_count: 2, duplicate_count: 0 });
    await ingress.settle();
    expect(ingress.publishedWith('message_id', messageId)).toHaveLength(1);
    expect(ingress.publishedWith('provider_message_id', statusId)).toHaveLength(1);
  });

  it('when events are listed, then newest first, filtered by outcome and paginated', async () => {
    const known = upstreamId();
    ingress.messaging.register(known);
    const ids: string[] = [];
    for (const text of ['a', 'b']) {
      const res = await ingress
        .postJson(numberBody(known, { messages: [textMessage(upstreamId(), text)] }))
        .expect(200);
      ids.push(res.body.data.event_id as string);
      await ingress.splitEvent(res.body.data.event_id as string);
    }
    const page = await admin('/admin/v1/inbound-events?outcome=processed&per_page=1').expect(200);
    expect(page.body.data.events).toHaveLength(1);
    expect(page.body.data.events[0]).toMatchObject({ event_id: ids[1], outcome: 'processed', item_count: 1 });
    expect(page.body.data.events[0]).not.toHaveProperty('raw_body');
    expect(page.body.data.pagination).toEqual({
      current_page: 1,
      per_page: 1,
      total: expect.any(Number),
      last_page: page.body.data.pagination.total,
    });
    const second = await admin('/admin/v1/inbound-events?outcome=processed&per_page=1&page=2').expect(200);
    expect(second.body.data.events[0].event_id).toBe(ids[0]);
  });

  it.each([
    ['an unknown outcome', '/admin/v1/inbound-events?outcome=lost', 422, 'VALIDATION_ERROR'],
    ['an unknown event', `/admin/v1/inbound-events/${ulid()}`, 404, 'NOT_FOUND'],
    ['a malformed id', '/admin/v1/inbound-events/1%20OR%201=1', 404, 'NOT_FOUND'],
  ])('when asked for %s, then %i %s', async (_case, path, status, code) => {
    const res = await admin(path);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });

  it('when the internal credential is missing, then the audit API answers 401 and the webhook routes still need none', async () => {
    const res = await request(ingress.url).get('/admin/v1/inbound-events');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_API_KEY');
    await request(ingress.url).post(`/admin/v1/inbound-events/${ulid()}/reprocess`).expect(401);
    await request(ingress.url).get('/health/ready').expect(200);
  });
});
