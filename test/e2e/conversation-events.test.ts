import request from 'supertest';
import { startHttpServer, type RunningServer } from '@bm/platform';
import { testEnv, waitFor } from '@bm/platform/testing';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { createGateway, type Gateway } from '../../services/gateway/src/gateway';
import { EventStreamClient } from '../support/event-stream';
import { startIngress, type IngressFixture } from '../support/ingress';
import { checkAnswersAgainstOpenApi } from '../support/openapi-check';
import { registerSecret } from '../support/secrets';
import {
  ADMIN_TOKEN,
  createTenant,
  randomPhone,
  startStack,
  type Stack,
  type TenantFixture,
} from '../support/stack';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const EVENTS = '/api/v1/conversations/events';

// The second replica's heartbeat (15 s in production, INBOX_HEARTBEAT_MS here): the tests that wait for a stream to
// end at a heartbeat wait for a few of these, not for a production period or two.
const HEARTBEAT_MS = 1_000;

/**
 * Another gateway replica against the same stack: the same database, broker and Redis, its own process state, and
 * a heartbeat of HEARTBEAT_MS.
 */
async function startGatewayReplica(
  stack: Stack,
): Promise<{ url: string; gateway: Gateway; stop(): Promise<void> }> {
  const gateway = await createGateway(
    loadGatewayConfig(
      testEnv({
        ADMIN_TOKEN,
        MESSAGING_URL: stack.messagingUrl,
        DEFAULT_PLAN: 'unlimited',
        INBOX_HEARTBEAT_MS: String(HEARTBEAT_MS),
      }),
    ),
  );
  await gateway.startWorkers();
  const server: RunningServer = await startHttpServer(gateway.app, 0, '127.0.0.1');
  checkAnswersAgainstOpenApi(server);
  return {
    url: server.url,
    gateway,
    stop: async () => {
      await gateway.inboxHub.close();
      await server.close();
      await gateway.close();
    },
  };
}

describe('the inbox event stream: conversations live over server-sent events, across gateway replicas', () => {
  let stack: Stack;
  let ingress: IngressFixture;
  let second: Awaited<ReturnType<typeof startGatewayReplica>>;
  let t: TenantFixture;
  let other: TenantFixture;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    stack = await startStack();
    ingress = await startIngress(stack);
    second = await startGatewayReplica(stack);
    t = await createTenant(stack);
    other = await createTenant(stack);
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await second.stop();
    await ingress.stop();
    await stack.stop();
  });

  async function openStream(
    url: string,
    tenant: TenantFixture,
    headers: Record<string, string> = {},
  ): Promise<EventStreamClient> {
    const opened = await EventStreamClient.open(`${url}${EVENTS}`, { ...tenant.auth, ...headers });
    if (!(opened instanceof EventStreamClient)) throw new Error(`stream: ${opened.status}`);
    streams.push(opened);
    // Subscribed once the answer started: the retry line comes first.
    await waitFor(() => opened.retry !== null, { what: 'the retry line' });
    return opened;
  }

  /** A customer writes through the sandbox (a signed webhook to webhook-ingress, then messaging). */
  async function customerWrites(tenant: TenantFixture, phone: string, text: string): Promise<string> {
    const res = await request(stack.sandboxUrl)
      .post('/_sandbox/inbound')
      .send({ phone_number_id: tenant.phoneNumberId, from: phone, text, name: 'Ana' })
      .expect(200);
    expect(res.body.delivered).toBe(true);
    return res.body.id as string;
  }

  const thread = async (url: string, tenant: TenantFixture, id: string): Promise<Json[]> =>
    (await request(url).get(`/api/v1/conversations/${id}/messages`).set(tenant.auth).expect(200)).body.data
      .messages as Json[];

  it('when the request has no credential, then it is 401 in the envelope, and a stream opens with retry', async () => {
    const res = await request(stack.gatewayUrl).get(EVENTS).set('Accept', 'text/event-stream').expect(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_API_KEY' } });
    const stream = await openStream(stack.gatewayUrl, t);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    expect(stream.retry).toBe(2000);
    stream.close();
  });

  it('when a customer writes, is answered on another replica and the answer is delivered, then the stream shows each step', async () => {
    const stream = await openStream(stack.gatewayUrl, t);
    const otherStream = await openStream(second.url, other);
    const phone = randomPhone();
    const inboundId = await customerWrites(t, phone, 'Is my parcel on its way?');

    const inbound = await stream.next('message', (d) => d.message.provider_message_id === inboundId);
    expect(inbound.message).toMatchObject({
      direction: 'inbound',
      text: 'Is my parcel on its way?',
      type: 'text',
    });
    const conversationId = inbound.conversation_id as string;
    const created = await stream.next('conversation', (d) => d.conversation.id === conversationId);
    expect(created.conversation).toMatchObject({
      customer: { phone },
      status: 'open',
      unread_count: 1,
      last_message_text: 'Is my parcel on its way?',
    });
    const [first] = await thread(stack.gatewayUrl, t, conversationId);
    expect(inbound.message).toEqual(first);

    // The reply goes through the second replica; the stream on the first shows it, then its statuses.
    const reply = await request(second.url)
      .post(`/api/v1/conversations/${conversationId}/messages`)
      .set(t.auth)
      .send({ message_type: 'text', data: { text: 'It is, arriving today.' } })
      .expect(202);
    const logId = reply.body.data.message_log_id as number;
    const queued = await stream.next('message', (d) => d.message.message_log_id === logId);
    expect(queued).toMatchObject({
      conversation_id: conversationId,
      message: { direction: 'outbound', status: 'queued', text: 'It is, arriving today.', type: 'text' },
    });
    // The sandbox reports sent, delivered and read: the last one streamed is the thread's message as it is.
    const last = await stream.next(
      'message',
      (d) => d.message.message_log_id === logId && d.message.status === 'read',
      'the reply read',
    );
    const ours = (await thread(stack.gatewayUrl, t, conversationId)).find((m) => m.message_log_id === logId);
    expect(last.message).toEqual(ours);
    const statuses = stream.of('message').filter((d) => d.message.message_log_id === logId);
    expect(statuses.map((d): unknown => d.message.status)).toEqual(
      expect.arrayContaining(['queued', 'sent', 'read']),
    );
    // The reply moved the conversation's activity.
    await stream.next(
      'conversation',
      (d) =>
        d.conversation.id === conversationId &&
        d.conversation.last_activity_at > created.conversation.last_activity_at,
    );

    // Every event has an id, and another tenant's stream saw none of them.
    expect(stream.events.every((e) => /^\d+-\d+$/.test(e.id ?? ''))).toBe(true);
    expect(otherStream.events.filter((e) => e.data.includes(conversationId))).toEqual([]);
  });

  it('when the API sends to a customer, then it is on the stream when they have a conversation, and only then', async () => {
    const stream = await openStream(stack.gatewayUrl, t);
    const phone = randomPhone();
    const inboundId = await customerWrites(t, phone, 'Can you text me the code?');
    const conversationId = (await stream.next('message', (d) => d.message.provider_message_id === inboundId))
      .conversation_id as string;
    const send = (to: string, text: string) =>
      request(second.url)
        .post('/api/v1/messages/send')
        .set(t.auth)
        .send({ channel_account_id: t.channelAccountId, phone: to, message_type: 'text', data: { text } })
        .expect(202);
    const sent = (await send(phone, 'Your code is 1234')).body.data.message_log_id as number;
    const onStream = await stream.next('message', (d) => d.message.message_log_id === sent);
    expect(onStream).toMatchObject({
      conversation_id: conversationId,
      message: { direction: 'outbound', text: 'Your code is 1234' },
    });
    await stream.next(
      'message',
      (d) => d.message.message_log_id === sent && d.message.status === 'read',
      'read',
    );
    // A template to someone with no conversation on the account: nothing on the stream, neither it nor its statuses.
    const template = await request(second.url)
      .post('/api/v1/messages/send')
      .set(t.auth)
      .send({
        channel_account_id: t.channelAccountId,
        phone: randomPhone(),
        message_type: 'template',
        data: { name: 'hello_world' },
      })
      .expect(202);
    const strangerId = template.body.data.message_log_id as number;
    await waitFor(
      async () =>
        (await request(stack.gatewayUrl).get(`/api/v1/messages/${strangerId}`).set(t.auth)).body.data
          .status === 'read',
      { what: 'the template read' },
    );
    // Events after it have come through: it never did.
    const later = (await send(phone, 'Anything else?')).body.data.message_log_id as number;
    await stream.next(
      'message',
      (d) => d.message.message_log_id === later && d.message.status === 'read',
      'read',
    );
    expect(stream.of('message').some((d) => d.message.message_log_id === strangerId)).toBe(false);
  });

  it('when a customer writes after a message to them was scheduled, then its later status change is on the stream', async () => {
    const stream = await openStream(stack.gatewayUrl, t);
    const phone = randomPhone();
    const scheduled = await request(stack.gatewayUrl)
      .post('/api/v1/messages/send')
      .set(t.auth)
      .send({
        channel_account_id: t.channelAccountId,
        phone,
        message_type: 'template',
        data: { name: 'hello_world' },
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .expect(202);
    const id = scheduled.body.data.message_log_id as number;
    const inboundId = await customerWrites(t, phone, 'What is this about?');
    const conversationId = (await stream.next('message', (d) => d.message.provider_message_id === inboundId))
      .conversation_id as string;
    expect(stream.of('message').some((d) => d.message.message_log_id === id)).toBe(false);
    await request(stack.gatewayUrl).post(`/api/v1/messages/${id}/cancel`).set(t.auth).expect(200);
    const cancelled = await stream.next('message', (d) => d.message.message_log_id === id);
    expect(cancelled).toMatchObject({
      conversation_id: conversationId,
      message: { direction: 'outbound', status: 'cancelled', template: { name: 'hello_world' } },
    });
  });

  it('when a conversation is closed, assigned elsewhere or read, then the stream shows the conversation as it is', async () => {
    const stream = await openStream(second.url, t);
    const phone = randomPhone();
    const inboundId = await customerWrites(t, phone, 'Hello?');
    const conversationId = (await stream.next('message', (d) => d.message.provider_message_id === inboundId))
      .conversation_id as string;
    await request(stack.gatewayUrl)
      .patch(`/api/v1/conversations/${conversationId}`)
      .set(t.auth)
      .send({ status: 'closed' })
      .expect(200);
    const closed = await stream.next(
      'conversation',
      (d) => d.conversation.id === conversationId && d.conversation.status === 'closed',
    );
    const current = await request(stack.gatewayUrl)
      .get(`/api/v1/conversations/${conversationId}`)
      .set(t.auth);
    expect(closed.conversation).toEqual(current.body.data);

    await request(stack.gatewayUrl)
      .post(`/api/v1/conversations/${conversationId}/read`)
      .set(t.auth)
      .expect(200);
    const read = await stream.next(
      'conversation',
      (d) => d.conversation.id === conversationId && d.conversation.unread_count === 0,
    );
    expect(read.conversation.read_at).not.toBeNull();
  });

  it('when a browser reconnects with Last-Event-ID, to another replica or after a restart, then it gets what it missed first', async () => {
    const phone = randomPhone();
    const first = await openStream(stack.gatewayUrl, t);
    const inboundId = await customerWrites(t, phone, 'Anyone there?');
    const conversationId = (await first.next('message', (d) => d.message.provider_message_id === inboundId))
      .conversation_id as string;
    await first.next('conversation', (d) => d.conversation.id === conversationId);
    const lastSeen = first.lastEventId!;
    first.close();

    // While no stream is open: closed, then a customer message.
    await request(stack.gatewayUrl)
      .patch(`/api/v1/conversations/${conversationId}`)
      .set(t.auth)
      .send({ status: 'closed' })
      .expect(200);
    const missedId = await customerWrites(t, phone, 'Still waiting');
    const again = await openStream(second.url, t, { 'Last-Event-ID': lastSeen });
    await again.next('message', (d) => d.message.provider_message_id === missedId);
    const mine = again.events.filter((e) => e.data.includes(conversationId));
    expect(mine[0].event).toBe('conversation');
    expect(JSON.parse(mine[0].data).conversation.status).toBe('closed');
    // Nothing before Last-Event-ID again.
    expect(again.events.some((e) => e.data.includes(inboundId))).toBe(false);

    // The second replica stops; an event is raised meanwhile; a new process serves the reconnection.
    const seen = again.lastEventId!;
    await second.stop();
    expect(again.ended || (await waitFor(() => again.ended, { what: 'the stream ended' }))).toBe(true);
    await request(stack.gatewayUrl)
      .patch(`/api/v1/conversations/${conversationId}`)
      .set(t.auth)
      .send({ status: 'open' })
      .expect(200);
    second = await startGatewayReplica(stack);
    const afterRestart = await openStream(second.url, t, { 'Last-Event-ID': seen });
    const reopened = await afterRestart.next(
      'conversation',
      (d) => d.conversation.id === conversationId && d.conversation.status === 'open',
    );
    expect(reopened._id).not.toBe(seen);
    expect(afterRestart.events.some((e) => e.data.includes(missedId))).toBe(false);
  });

  it("when another tenant's customer writes, then only that tenant's stream shows it", async () => {
    const mine = await openStream(stack.gatewayUrl, t);
    const theirs = await openStream(second.url, other);
    const inboundId = await customerWrites(other, randomPhone(), 'For the other tenant');
    await theirs.next('message', (d) => d.message.provider_message_id === inboundId);
    // A later event of the tenant's own has come through: the other tenant's, earlier, never did.
    const own = await customerWrites(t, randomPhone(), 'For this tenant');
    await mine.next('message', (d) => d.message.provider_message_id === own);
    expect(mine.events.some((e) => e.data.includes(inboundId))).toBe(false);
    // Asking for another tenant changes nothing but the answer: 403.
    const asked = await request(stack.gatewayUrl)
      .get(EVENTS)
      .set({ ...t.auth, 'X-TENANT-ID': String(other.tenantId) })
      .expect(403);
    expect(asked.body.error.code).toBe('TENANT_FORBIDDEN');
  });

  it('when the key a stream was opened with is revoked, then the stream ends at its next heartbeat (a ping every INBOX_HEARTBEAT_MS)', async () => {
    const issued = await request(stack.gatewayUrl).post('/api/v1/api-keys').set(t.auth).expect(201);
    const apiKey = issued.body.data.api_key as string;
    registerSecret('API key issued for the stream', apiKey);
    const stream = await openStream(second.url, { ...t, auth: { Authorization: `Bearer ${apiKey}` } });
    await waitFor(() => stream.comments.includes('ping'), {
      what: 'a heartbeat',
      timeoutMs: 10 * HEARTBEAT_MS,
    });
    expect(stream.ended).toBe(false);
    await request(stack.gatewayUrl)
      .delete(`/api/v1/api-keys/${issued.body.data.key_id}`)
      .set(t.auth)
      .expect(200);
    await waitFor(() => stream.ended, { what: 'the stream ended', timeoutMs: 10 * HEARTBEAT_MS });
  }, 45_000);

  it("when a dashboard user's session opens the stream, then it carries their tenant's events and ends at the heartbeat after sign-out", async () => {
    const origin = { Origin: new URL(stack.gatewayUrl).origin };
    const email = `agent-${Date.now()}@example.com`;
    const invited = await request(stack.gatewayUrl)
      .post(`/admin/v1/tenants/${t.tenantId}/users`)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ email })
      .expect(201);
    const token = new URL(invited.body.data.invite_url as string).hash.replace(/^#token=/, '');
    const password = 'correct horse battery staple';
    await request(stack.gatewayUrl)
      .post('/api/auth/set-password')
      .set(origin)
      .send({ token, password })
      .expect(200);
    const signedIn = await request(stack.gatewayUrl)
      .post('/api/auth/sign-in')
      .set(origin)
      .send({ email, password })
      .expect(200);
    const cookie = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0].split(';')[0];
    registerSecret('session cookie', cookie.split('=')[1]);
    const stream = await openStream(
      second.url,
      { ...t, auth: {} as { Authorization: string } },
      { Cookie: cookie },
    );
    const inboundId = await customerWrites(t, randomPhone(), 'Hi from the dashboard test');
    await stream.next('message', (d) => d.message.provider_message_id === inboundId);

    await request(stack.gatewayUrl)
      .post('/api/auth/sign-out')
      .set({ ...origin, Cookie: cookie, 'X-CSRF-Token': signedIn.body.data.csrf_token as string })
      .expect((res) => expect(res.status).toBeLessThan(300));
    await waitFor(() => stream.ended, { what: 'the stream ended', timeoutMs: 10 * HEARTBEAT_MS });
  }, 45_000);
});
