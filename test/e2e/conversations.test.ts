import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { inboundText, publishInbound } from '../support/events';
import { startIngress, type IngressFixture } from '../support/ingress';
import {
  ADMIN_TOKEN,
  createTenant,
  randomPhone,
  startStack,
  type Stack,
  type TenantFixture,
} from '../support/stack';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the live-chat inbox over the gateway: conversations, threads, replies, assignment, read receipts', () => {
  let stack: Stack;
  let ingress: IngressFixture;
  let t: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    stack = await startStack();
    ingress = await startIngress(stack);
    t = await createTenant(stack);
    other = await createTenant(stack);
  });
  afterAll(async () => {
    await ingress.stop();
    await stack.stop();
  });

  const api = (tenant: TenantFixture = t) => ({
    get: (path: string) => request(stack.gatewayUrl).get(path).set(tenant.auth),
    post: (path: string, body: object = {}) =>
      request(stack.gatewayUrl).post(path).set(tenant.auth).send(body),
    patch: (path: string, body: object) => request(stack.gatewayUrl).patch(path).set(tenant.auth).send(body),
  });

  /** A customer writes through the sandbox (a signed webhook to webhook-ingress, then messaging). */
  async function customerWrites(phone: string, text: string, name = 'Ana'): Promise<string> {
    const res = await request(stack.sandboxUrl)
      .post('/_sandbox/inbound')
      .send({ phone_number_id: t.phoneNumberId, from: phone, text, name })
      .expect(200);
    expect(res.body.delivered).toBe(true);
    return res.body.id as string;
  }

  /** The tenant's conversation with the customer, once their message has reached it. */
  async function conversationOf(phone: string, tenant = t, unread = 1): Promise<Json> {
    return waitFor(
      async () => {
        const res = await api(tenant).get(`/api/v1/conversations?q=${phone}`).expect(200);
        const found = (res.body.data.conversations as Json[]).find((c) => c.customer.phone === phone);
        return found && found.unread_count >= unread ? found : undefined;
      },
      { what: `the conversation with ${phone}` },
    );
  }

  async function thread(id: string, query = ''): Promise<Json> {
    return (await api().get(`/api/v1/conversations/${id}/messages${query}`).expect(200)).body.data as Json;
  }

  it('when a customer writes and is answered, then the conversation lists both directions with our status', async () => {
    const phone = randomPhone();
    const inboundId = await customerWrites(phone, 'Where is my order?');
    const c = await conversationOf(phone);
    expect(c).toMatchObject({
      channel_account_id: t.channelAccountId,
      customer: { phone, name: 'Ana' },
      status: 'open',
      assignee: null,
      unread_count: 1,
      last_message_text: 'Where is my order?',
    });
    const openUntil = Date.parse(c.open_until as string);
    expect(openUntil).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(openUntil).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);
    expect((await api().get(`/api/v1/conversations/${c.id}`).expect(200)).body.data).toEqual(c);

    const reply = await api()
      .post(`/api/v1/conversations/${c.id}/messages`, { message_type: 'text', data: { text: 'On its way!' } })
      .expect(202);
    expect(reply.body.data).toMatchObject({ status: 'queued', conversation_category: 'SERVICE' });
    const logId = reply.body.data.message_log_id as number;

    const messages = await waitFor(
      async () => {
        const page = await thread(c.id as string);
        const ours = (page.messages as Json[]).find((m) => m.message_log_id === logId);
        return ours && ours.status !== 'queued' ? (page.messages as Json[]) : undefined;
      },
      { what: 'the reply sent' },
    );
    expect(messages).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        provider_message_id: inboundId,
        type: 'text',
        text: 'Where is my order?',
        status: null,
        message_log_id: null,
      }),
      expect.objectContaining({
        direction: 'outbound',
        type: 'text',
        text: 'On its way!',
        message_log_id: logId,
      }),
    ]);
    expect(['sent', 'delivered', 'read']).toContain(messages[1].status);
    // The reply is a normal message log.
    await api().get(`/api/v1/messages/${logId}`).expect(200);
  });

  it('when the thread is longer than a page, then `before` pages back without gaps or repeats', async () => {
    const phone = randomPhone();
    for (const text of ['one', 'two', 'three']) await customerWrites(phone, text);
    const c = await conversationOf(phone, t, 3);
    await api()
      .post(`/api/v1/conversations/${c.id}/messages`, { message_type: 'text', data: { text: 'four' } })
      .expect(202);
    const texts: string[] = [];
    let before: string | null = null;
    do {
      const page: Json = await thread(c.id as string, `?limit=2${before ? `&before=${before}` : ''}`);
      texts.unshift(...(page.messages as Json[]).map((m) => m.text as string));
      before = page.next_before as string | null;
    } while (before);
    expect(texts).toEqual(['one', 'two', 'three', 'four']);
    await api().get(`/api/v1/conversations/${c.id}/messages?before=not-a-cursor`).expect(422);
    const huge = Buffer.from('99999999999999999999|0|x').toString('base64url');
    await api().get(`/api/v1/conversations/${c.id}/messages?before=${huge}`).expect(422);
    await api().get('/api/v1/conversations?q=a%00b').expect(422);
    const bad = await api().get(`/api/v1/conversations/${c.id}/messages?limit=0`).expect(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when a customer sends media and their window has closed, then the thread shows it and only a template goes', async () => {
    const phone = randomPhone();
    const day = 30 * 3_600_000;
    const image = {
      ...inboundText(t, phone, ''),
      type: 'image',
      text: null,
      raw: {
        type: 'image',
        image: {
          id: 'media-1',
          mime_type: 'image/jpeg',
          sha256: 'abc',
          caption: 'the broken box',
          url: 'https://x/1',
        },
      },
    };
    await publishInbound(stack, 'inbound.message', {
      ...image,
      occurred_at: new Date(Date.now() - day).toISOString(),
    });
    const c = await conversationOf(phone);
    expect(c.open_until).toBeNull();
    const page = await thread(c.id as string);
    expect(page.messages).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        type: 'image',
        text: 'the broken box',
        media: {
          id: 'media-1',
          url: 'https://x/1',
          mime_type: 'image/jpeg',
          caption: 'the broken box',
          filename: null,
          sha256: 'abc',
        },
      }),
    ]);

    const refused = await api()
      .post(`/api/v1/conversations/${c.id}/messages`, { message_type: 'text', data: { text: 'Sorry!' } })
      .expect(422);
    expect(refused.body.error.code).toBe('OUTSIDE_SERVICE_WINDOW');
    await api()
      .post(`/api/v1/conversations/${c.id}/messages`, {
        message_type: 'template',
        data: { name: 'hello_world', language_code: 'en_US' },
      })
      .expect(202);
    const after = await thread(c.id as string);
    expect(after.messages[1]).toMatchObject({
      direction: 'outbound',
      type: 'template',
      template: { name: 'hello_world', language: 'en_US' },
    });
  });

  it('when conversations are assigned, closed and searched, then the listing filters them', async () => {
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const invite = async (tenant: TenantFixture) =>
      (
        await request(stack.gatewayUrl)
          .post(`/admin/v1/tenants/${tenant.tenantId}/users`)
          .set(admin)
          .send({ email: `agent-${Date.now()}-${Math.random()}@example.com` })
          .expect(201)
      ).body.data.user_id as string;
    const agent = await invite(t);
    const stranger = await invite(other);
    const [p1, p2] = [randomPhone(), randomPhone()];
    await customerWrites(p1, 'My parcel is lost', 'Bruno');
    await customerWrites(p2, 'Can I pay by card?', 'Carla');
    const [c1, c2] = [await conversationOf(p1), await conversationOf(p2)];

    const assigned = await api().patch(`/api/v1/conversations/${c1.id}`, { assignee: agent }).expect(200);
    expect(assigned.body.data).toMatchObject({ assignee: agent, status: 'open' });
    for (const assignee of [stranger, 'nobody-of-ours']) {
      const res = await api().patch(`/api/v1/conversations/${c1.id}`, { assignee }).expect(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    await api().patch(`/api/v1/conversations/${c2.id}`, { status: 'closed' }).expect(200);
    await api().patch(`/api/v1/conversations/${c2.id}`, { status: 'archived' }).expect(422);
    await api().patch(`/api/v1/conversations/${c2.id}`, {}).expect(422);

    const ids = async (query: string): Promise<string[]> => {
      const res = await api().get(`/api/v1/conversations?${query}`).expect(200);
      return (res.body.data.conversations as Json[]).map((c) => String(c.id));
    };
    expect(await ids(`assignee=${agent}`)).toEqual([c1.id]);
    expect(await ids('q=parcel')).toContain(c1.id);
    expect(await ids('q=parcel')).not.toContain(c2.id);
    expect(await ids('q=Carla')).toEqual([c2.id]);
    expect(await ids(`q=${p2.slice(-7)}&status=closed`)).toEqual([c2.id]);
    expect(await ids(`q=${p2.slice(-7)}&status=open`)).toEqual([]);
    expect(await ids(`channel_account_id=${other.channelAccountId}`)).toEqual([]);
    const listing = await api().get(
      `/api/v1/conversations?channel_account_id=${t.channelAccountId}&per_page=2`,
    );
    expect(listing.body.data.pagination).toMatchObject({ current_page: 1, per_page: 2 });
    const times = (listing.body.data.conversations as Json[]).map((c) =>
      Date.parse(c.last_activity_at as string),
    );
    expect(times).toEqual([...times].sort((a, b) => b - a));
    await api().get('/api/v1/conversations?status=pending').expect(422);

    // A message no flow answers reopens a closed conversation.
    await customerWrites(p2, 'Hello again?', 'Carla');
    await waitFor(
      async () =>
        (await api().get(`/api/v1/conversations/${c2.id}`).expect(200)).body.data.status === 'open' ||
        undefined,
      { what: 'the conversation reopened' },
    );
  });

  it('when the inbox marks a conversation read, then unread drops to 0 and the upstream gets the read receipt', async () => {
    const phone = randomPhone();
    await customerWrites(phone, 'first');
    const last = await customerWrites(phone, 'second');
    const c = await conversationOf(phone, t, 2);
    const read = await api().post(`/api/v1/conversations/${c.id}/read`).expect(200);
    expect(read.body.data.receipt).toEqual({ message_id: last, sent: true, error: null });
    expect(read.body.data.conversation).toMatchObject({ id: c.id, unread_count: 0 });
    expect(read.body.data.conversation.read_at).not.toBeNull();
    const receipts = await request(stack.sandboxUrl)
      .get(`/_sandbox/read-receipts?phone_number_id=${t.phoneNumberId}`)
      .expect(200);
    expect(receipts.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ message_id: last })]),
    );
  });

  it('when the listing asks for unread ones or those waiting longest, then the server filters and orders them', async () => {
    const [older, newer, seen] = [randomPhone(), randomPhone(), randomPhone()];
    for (const phone of [older, newer, seen]) await customerWrites(phone, `waiting ${phone}`);
    const [a, b, c] = [await conversationOf(older), await conversationOf(newer), await conversationOf(seen)];
    await api().post(`/api/v1/conversations/${c.id}/read`).expect(200);
    const ids = async (query: string): Promise<string[]> => {
      const res = await api().get(`/api/v1/conversations?q=waiting&per_page=100&${query}`).expect(200);
      return (res.body.data.conversations as Json[])
        .map((x) => String(x.id))
        .filter((id) => [a.id, b.id, c.id].includes(id));
    };
    // The upstream's times are whole seconds and messaging takes messages concurrently: conversations whose last
    // activity is the same instant are ordered by id, as the server promises, whatever order they were made in.
    const newestFirst = (x: Json, y: Json) =>
      String(y.last_activity_at).localeCompare(String(x.last_activity_at)) ||
      String(y.id).localeCompare(String(x.id));
    const newest = [a, b, c].sort(newestFirst).map((x) => String(x.id));
    const unread = newest.filter((id) => id !== c.id);
    expect(await ids('')).toEqual(newest);
    expect(await ids('order=newest')).toEqual(newest);
    expect(await ids('unread=true')).toEqual(unread);
    // Unread first, the longest silent of them first; the read one after them.
    expect(await ids('order=waiting')).toEqual([...[...unread].reverse(), String(c.id)]);
    expect(await ids('order=waiting&unread=true')).toEqual([...unread].reverse());
    await api().get('/api/v1/conversations?order=oldest').expect(422);
  });

  it('when another tenant names a conversation, then every path answers 404 NOT_FOUND and its listing lacks it', async () => {
    const phone = randomPhone();
    await customerWrites(phone, 'private');
    const c = await conversationOf(phone);
    const paths = (id: string) => [
      api(other).get(`/api/v1/conversations/${id}`),
      api(other).get(`/api/v1/conversations/${id}/messages`),
      api(other).patch(`/api/v1/conversations/${id}`, { status: 'closed' }),
      api(other).post(`/api/v1/conversations/${id}/messages`, { message_type: 'text', data: { text: 'hi' } }),
      api(other).post(`/api/v1/conversations/${id}/read`),
    ];
    for (const id of [c.id as string, '01JZZZZZZZZZZZZZZZZZZZZZZZ', 'not-a-ulid']) {
      for (const res of await Promise.all(paths(id))) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      }
    }
    const listing = await api(other).get(`/api/v1/conversations?q=${phone}`).expect(200);
    expect(listing.body.data.conversations).toEqual([]);
    expect((await api().get(`/api/v1/conversations/${c.id}`).expect(200)).body.data.status).toBe('open');
  });
});
