import request from 'supertest';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { loadIngressConfig } from '../../services/webhook-ingress/src/config';
import {
  contact,
  entry,
  envelope,
  messagesChange,
  sign,
  wamid,
  type Json,
} from '../../services/webhook-ingress/test/factories/webhooks';
import { startReceiver, type Receiver } from '../../services/webhook-dispatcher/test/factories/receiver';
import { startDispatcherStack, type DispatcherStack } from '../support/dispatcher';
import { publishInbound } from '../support/events';
import { orderUpdateData } from '../support/messages';
import { startIngress, type IngressFixture } from '../support/ingress';
import { createTenant, randomPhone, type TenantFixture } from '../support/stack';

/*
 * Conversation flows end to end: customers' messages arrive as signed upstream webhooks at webhook-ingress,
 * messaging runs the flows and sends through the sandbox, and the flow.session_* webhooks reach a real local
 * receiver through the dispatcher.
 */
describe('conversation flows driven by signed inbound webhooks', () => {
  let env: DispatcherStack;
  let ingress: IngressFixture;
  let t: TenantFixture;
  let receiver: Receiver;
  const appSecret = loadIngressConfig(testEnv()).INGRESS_APP_SECRET;

  beforeAll(async () => {
    env = await startDispatcherStack({ messagingEnv: { FLOW_SWEEP_INTERVAL_MS: '100' } });
    ingress = await startIngress(env.stack);
    t = await createTenant(env.stack);
    receiver = await startReceiver();
    await api()
      .put('/api/v1/webhooks/settings')
      .set(t.auth)
      .send({
        url: `${receiver.url}/hooks`,
        events: ['flow.session_started', 'flow.session_completed', 'flow.session_cancelled'],
      })
      .expect(200);
  });
  afterAll(async () => {
    await ingress.stop();
    await env.stop();
    await receiver.close();
  });

  const api = () => request(env.gatewayUrl);

  /** One customer message as the upstream posts it, signed; the same body may be posted again. */
  const inboundBody = (from: string, message: Json, at = Math.floor(Date.now() / 1000)): string =>
    JSON.stringify(
      envelope(
        entry(
          t.wabaId,
          messagesChange(t.phoneNumberId, {
            contacts: [contact(from, 'Customer')],
            messages: [{ from, id: wamid(), timestamp: String(at), ...message }],
          }),
        ),
      ),
    );
  const post = (body: string) =>
    request(ingress.url)
      .post('/api/webhooks/channel')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', sign(body, appSecret))
      .send(body)
      .expect(200);
  const text = (from: string, body: string) => post(inboundBody(from, { type: 'text', text: { body } }));
  const buttonReply = (from: string, id: string, title: string) =>
    inboundBody(from, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id, title } },
    });
  const listReply = (from: string, id: string, title: string) =>
    inboundBody(from, {
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id, title } },
    });

  const messageIdOf = (body: string): string =>
    (JSON.parse(body) as { entry: Array<{ changes: Array<{ value: { messages: Array<{ id: string }> } }> }> })
      .entry[0].changes[0].value.messages[0].id;

  /** The tenant's live-chat notifications for a customer, once there is one. */
  const notificationsFor = (phone: string) =>
    waitFor(
      async () => {
        const res = await request(ingress.url).get('/api/v1/notifications').set(ingress.internal(t.tenantId));
        const all = res.body.data.notifications as Array<Record<string, unknown>>;
        const found = all.filter((n) => n.customer_phone === phone);
        return found.length > 0 && found;
      },
      { what: `live-chat request of ${phone}` },
    );

  /** flow.session_* webhooks the receiver got for a customer. */
  const webhooksFor = (phone: string) =>
    receiver.requests
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
      .filter((b) => b.phone === phone);
  const waitForWebhook = (phone: string, event: string) =>
    waitFor(() => webhooksFor(phone).find((b) => b.event === event), {
      what: `${event} for ${phone}`,
      timeoutMs: 20_000,
    });

  const sendsTo = async (phone: string) =>
    (await request(env.stack.sandboxUrl).get(`/_sandbox/sends?to=${phone}`)).body.data as Array<{
      body: Record<string, unknown>;
    }>;
  const waitForSends = (phone: string, count: number) =>
    waitFor(
      async () => {
        const sends = await sendsTo(phone);
        return sends.length >= count && sends;
      },
      { what: `${count} sends to ${phone}`, timeoutMs: 20_000 },
    );

  const sessionsOf = async (flowId: string) =>
    (await api().get(`/api/v1/flows/${flowId}/sessions`).set(t.auth).expect(200)).body.data.sessions as Array<
      Record<string, unknown>
    >;
  const sessionOf = (flowId: string, phone: string, status: string) =>
    waitFor(async () => (await sessionsOf(flowId)).find((s) => s.phone === phone && s.status === status), {
      what: `${status} session of ${phone}`,
      timeoutMs: 20_000,
    });

  /** Ask with reply buttons, branch: yes -> pick a size from a list -> end; no -> hand off to a person. */
  const twoStepFlow = (keyword: string, extra: Record<string, unknown> = {}) => ({
    channel_account_id: t.channelAccountId,
    name: `Order ${keyword}`,
    trigger: { type: 'keyword', keywords: [keyword] },
    steps: [
      {
        id: 'ask',
        type: 'send_buttons',
        body: 'Do you want to order?',
        buttons: [
          { id: 'yes', title: 'Yes' },
          { id: 'no', title: 'No' },
        ],
        next: 'answer',
      },
      {
        id: 'answer',
        type: 'wait_for_reply',
        save_as: 'wants',
        branches: [
          { button_id: 'yes', next: 'size' },
          { button_id: 'no', next: 'human' },
        ],
        fallback: 'ask',
      },
      {
        id: 'size',
        type: 'send_list',
        body: 'Which size?',
        button: 'Sizes',
        sections: [
          {
            title: 'Sizes',
            rows: [
              { id: 'size_s', title: 'Small' },
              { id: 'size_l', title: 'Large' },
            ],
          },
        ],
        next: 'picked',
      },
      {
        id: 'picked',
        type: 'wait_for_reply',
        save_as: 'size',
        branches: [{ row_id: 'size_l', next: 'big' }],
        fallback: 'thanks',
      },
      { id: 'big', type: 'set_variable', variable: 'note', value: 'big order of {{reply}}', next: 'thanks' },
      { id: 'thanks', type: 'send_text', text: 'Thanks, size {{size}} it is.', next: 'done' },
      { id: 'done', type: 'end' },
      { id: 'human', type: 'handoff' },
    ],
    ...extra,
  });
  const inboundItem = (from: string) => ({
    waba_id: t.wabaId,
    phone_number_id: t.phoneNumberId,
    from,
    name: 'Customer',
    type: 'text',
    text: 'hello',
    media: null,
    button_payload: null,
    context_message_id: null,
    raw: { type: 'text', text: { body: 'hello' } },
  });
  const activeFlow = async (body: Record<string, unknown>): Promise<string> => {
    const created = await api().post('/api/v1/flows').set(t.auth).send(body).expect(201);
    const id = created.body.data.flow_id as string;
    await api().post(`/api/v1/flows/${id}/activate`).set(t.auth).expect(200);
    return id;
  };

  it('when a customer triggers a two-step flow and replies with a button then a list row, then the flow branches, collects variables and completes at the receiver', async () => {
    const keyword = `order${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword));
    const phone = randomPhone();

    await text(phone, `  ${keyword.toUpperCase()} `);
    const started = await waitForWebhook(phone, 'flow.session_started');
    expect(started).toMatchObject({ tenant_id: t.tenantId, flow_id: flowId, variables: {} });
    const [ask] = await waitForSends(phone, 1);
    expect(ask.body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Do you want to order?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
            { type: 'reply', reply: { id: 'no', title: 'No' } },
          ],
        },
      },
    });

    await post(buttonReply(phone, 'yes', 'Yes'));
    const [, list] = await waitForSends(phone, 2);
    expect(list.body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'list',
        action: { button: 'Sizes', sections: [{ rows: [{ id: 'size_s' }, { id: 'size_l' }] }] },
      },
    });

    await post(listReply(phone, 'size_l', 'Large'));
    const completed = await waitForWebhook(phone, 'flow.session_completed');
    const variables = { wants: 'yes', size: 'size_l', note: 'big order of Large' };
    expect(completed).toMatchObject({ flow_id: flowId, session_id: started.session_id, phone, variables });
    const sends = await waitForSends(phone, 3);
    expect(sends[2].body).toMatchObject({ type: 'text', text: { body: 'Thanks, size size_l it is.' } });
    expect(await sessionOf(flowId, phone, 'completed')).toMatchObject({
      session_id: started.session_id,
      flow_version: 1,
      current_step: null,
      variables,
      ended_at: expect.any(String),
    });
  });

  it('when the customer answers "No", then the session hands off to a person and a live-chat request is raised', async () => {
    const keyword = `help${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword));
    const phone = randomPhone();
    await text(phone, keyword);
    await waitForWebhook(phone, 'flow.session_started');
    const reply = buttonReply(phone, 'no', 'No');
    await post(reply);

    expect(await waitForWebhook(phone, 'flow.session_completed')).toMatchObject({
      variables: { wants: 'no' },
    });
    expect(await sessionOf(flowId, phone, 'handed_off')).toBeDefined();
    const handoff = await notificationsFor(phone);
    // The trigger and the reply were taken by the flow: only the hand-off asks for a person.
    expect(handoff).toEqual([
      expect.objectContaining({
        type: 'live_chat_request',
        channel_account_id: t.channelAccountId,
        customer_phone: phone,
        text: 'No',
        message_id: messageIdOf(reply),
        conversation_id: expect.any(String),
      }),
    ]);
    // It links to the customer's conversation in the inbox, open again.
    const conversation = await request(env.stack.messagingUrl)
      .get(`/api/v1/conversations/${String(handoff[0].conversation_id)}`)
      .set({
        [INTERNAL_HEADERS.token]: testEnv().INTERNAL_TOKEN!,
        [INTERNAL_HEADERS.tenantId]: String(t.tenantId),
      })
      .expect(200);
    expect(conversation.body.data).toMatchObject({ status: 'open', customer: { phone } });
  });

  it('when the customer writes "Cancel" during a session, then it is cancelled with its variables', async () => {
    const keyword = `cancel${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword));
    const phone = randomPhone();
    await text(phone, keyword);
    await waitForWebhook(phone, 'flow.session_started');
    await post(buttonReply(phone, 'yes', 'Yes'));
    await waitForSends(phone, 2);

    await text(phone, 'Cancel');
    expect(await waitForWebhook(phone, 'flow.session_cancelled')).toMatchObject({
      flow_id: flowId,
      variables: { wants: 'yes' },
    });
    expect(await sessionOf(flowId, phone, 'cancelled')).toMatchObject({ current_step: null });
    expect(await sendsTo(phone)).toHaveLength(2);
  });

  it('when the customer does not answer within the timeout, then the session ends as timed out', async () => {
    const keyword = `slow${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword, { timeout_seconds: 1 }));
    const phone = randomPhone();
    await text(phone, keyword);
    const started = await waitForWebhook(phone, 'flow.session_started');
    const waiting = await sessionOf(flowId, phone, 'active');
    expect(waiting).toMatchObject({ current_step: 'answer', expires_at: expect.any(String) });

    expect(await waitForWebhook(phone, 'flow.session_cancelled')).toMatchObject({
      session_id: started.session_id,
    });
    expect(await sessionOf(flowId, phone, 'timed_out')).toMatchObject({ session_id: started.session_id });
  });

  it('when a flow sends a MARKETING template, then the customer gets it, unless they opted out: that session is cancelled and nothing is sent', async () => {
    const keyword = `promo${uniqueSuffix()}`;
    const flowId = await activeFlow({
      channel_account_id: t.channelAccountId,
      name: `Promo ${keyword}`,
      trigger: { type: 'keyword', keywords: [keyword] },
      steps: [
        {
          id: 'offer',
          type: 'send_template',
          template: {
            name: 'order_update',
            language_code: 'en_US',
            components: orderUpdateData('{{reply}}', 'B').components,
          },
          next: 'done',
        },
        { id: 'done', type: 'end' },
      ],
    });
    const customer = randomPhone();
    await text(customer, keyword);
    const [offer] = await waitForSends(customer, 1);
    expect(offer.body).toMatchObject({ type: 'template', template: { name: 'order_update' } });
    await waitForWebhook(customer, 'flow.session_completed');

    // The opt-out as the campaign service sets messaging's copy of it.
    const optedOut = randomPhone();
    await request(env.stack.messagingUrl)
      .put(`/internal/v1/opt-outs/${optedOut}`)
      .set({
        [INTERNAL_HEADERS.token]: testEnv().INTERNAL_TOKEN!,
        [INTERNAL_HEADERS.tenantId]: String(t.tenantId),
      })
      .send({ opted_out: true, version: 1 })
      .expect(200);
    await text(optedOut, keyword);
    await waitForWebhook(optedOut, 'flow.session_cancelled');
    expect(await sessionOf(flowId, optedOut, 'cancelled')).toBeDefined();
    expect(await sendsTo(optedOut)).toEqual([]);
  });

  it('when a flow is deactivated, then its keyword starts nothing and the message asks for a person', async () => {
    const keyword = `off${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword));
    const off = await api().post(`/api/v1/flows/${flowId}/deactivate`).set(t.auth).expect(200);
    expect(off.body.data.status).toBe('inactive');
    const phone = randomPhone();
    await text(phone, keyword);

    expect(await notificationsFor(phone)).toEqual([expect.objectContaining({ text: keyword })]);
    expect(await sessionsOf(flowId)).toEqual([]);
    expect(await sendsTo(phone)).toEqual([]);
    expect(webhooksFor(phone)).toEqual([]);
  });

  it('when two customers run the same flow at once, then each session keeps its own branch and variables', async () => {
    const keyword = `pair${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword));
    const [ana, ben] = [randomPhone(), randomPhone()];
    await Promise.all([text(ana, keyword), text(ben, keyword)]);
    await Promise.all([
      waitForWebhook(ana, 'flow.session_started'),
      waitForWebhook(ben, 'flow.session_started'),
    ]);

    await Promise.all([post(buttonReply(ana, 'yes', 'Yes')), post(buttonReply(ben, 'no', 'No'))]);
    await waitForSends(ana, 2);
    await post(listReply(ana, 'size_s', 'Small'));

    expect(await waitForWebhook(ana, 'flow.session_completed')).toMatchObject({
      variables: { wants: 'yes', size: 'size_s' },
    });
    expect(await waitForWebhook(ben, 'flow.session_completed')).toMatchObject({ variables: { wants: 'no' } });
    expect(await sessionOf(flowId, ana, 'completed')).toBeDefined();
    expect(await sessionOf(flowId, ben, 'handed_off')).toBeDefined();
    expect(await sendsTo(ben)).toHaveLength(1);
  });

  it('when the same inbound reply is delivered twice, then the session advances once', async () => {
    const keyword = `twice${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword));
    const phone = randomPhone();
    await text(phone, keyword);
    await waitForSends(phone, 1);

    const reply = buttonReply(phone, 'yes', 'Yes');
    const deliveries = [await post(reply), await post(reply)];
    await waitForSends(phone, 2);
    // Both deliveries' items went out (a customer message needs no dedupe key at ingress: messaging keeps it once).
    for (const delivery of deliveries) {
      await waitFor(
        async () => {
          const res = await request(ingress.url)
            .get(`/admin/v1/inbound-events/${delivery.body.data.event_id as string}`)
            .set(ingress.internal());
          return res.body.data.outcome === 'processed';
        },
        { what: 'each delivery of the reply published' },
      );
    }
    // The broker delivers at least once: the item itself arriving again at messaging changes nothing either.
    await publishInbound(env.stack, 'inbound.message', {
      waba_id: t.wabaId,
      phone_number_id: t.phoneNumberId,
      message_id: messageIdOf(reply),
      from: phone,
      name: 'Customer',
      type: 'interactive',
      text: 'Yes',
      media: null,
      button_payload: 'yes',
      context_message_id: null,
      raw: {
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
      },
    });
    // Had it advanced again, the list's wait would have taken it (fallback "thanks": a third send, completed).
    // A later item, published after the duplicate, has been processed as well.
    const marker = randomPhone();
    await publishInbound(env.stack, 'inbound.message', { ...inboundItem(marker), message_id: wamid() });
    await notificationsFor(marker);
    const [session] = await sessionsOf(flowId);
    expect(session).toMatchObject({
      phone,
      status: 'active',
      current_step: 'picked',
      variables: { wants: 'yes' },
    });
    expect(await sendsTo(phone)).toHaveLength(2);
  });

  it('when customers write and no flow takes their messages, then one live-chat request per customer per hour', async () => {
    const hour = Math.floor(Date.now() / 3_600_000) * 3600;
    const [first, second] = [randomPhone(), randomPhone()];
    const write = (from: string, body: string, at: number) =>
      post(inboundBody(from, { type: 'text', text: { body } }, at));
    await write(first, 'Hello, I need help', hour - 3600 + 10);
    await notificationsFor(first);
    await write(first, 'Anyone?', hour - 3600 + 600);
    await write(second, 'Hi', hour - 3600 + 700);
    await write(first, 'Still waiting', hour + 5);

    await notificationsFor(second);
    const requests = await waitFor(
      async () => {
        const found = await notificationsFor(first);
        return found.length === 2 && found;
      },
      { what: 'two requests of the first customer' },
    );
    expect(requests.map((n) => n.text)).toEqual(['Still waiting', 'Hello, I need help']);
  });

  it('when a flow is saved with a dangling or unreachable step, then 422 names the step', async () => {
    const flow = twoStepFlow(`bad${uniqueSuffix()}`);
    const steps = flow.steps.map((s) => (s.id === 'thanks' ? { ...s, next: 'nowhere' } : s));
    const dangling = await api()
      .post('/api/v1/flows')
      .set(t.auth)
      .send({ ...flow, steps })
      .expect(422);
    expect(dangling.body.error.code).toBe('VALIDATION_ERROR');
    expect(dangling.body.error.details.errors).toEqual([
      { field: 'steps[5].next', message: 'steps[5].next names no step (nowhere)' },
    ]);

    const orphan = { id: 'orphan', type: 'send_text', text: 'never', next: 'done' };
    const unreachable = await api()
      .post('/api/v1/flows')
      .set(t.auth)
      .send({ ...flow, steps: [...flow.steps, orphan] })
      .expect(422);
    expect(unreachable.body.error.details.errors).toEqual([
      { field: 'steps[8]', message: 'step orphan cannot be reached from the first step' },
    ]);
  });

  it('when a running flow is updated, then its session finishes on the version it started', async () => {
    const keyword = `ver${uniqueSuffix()}`;
    const flowId = await activeFlow(twoStepFlow(keyword));
    const phone = randomPhone();
    await text(phone, keyword);
    await waitForSends(phone, 1);

    const v1 = twoStepFlow(keyword);
    const v2 = { ...v1, steps: v1.steps.map((s) => (s.id === 'ask' ? { ...s, body: 'Version two?' } : s)) };
    const updated = await api().put(`/api/v1/flows/${flowId}`).set(t.auth).send(v2).expect(200);
    expect(updated.body.data).toMatchObject({ version: 2, status: 'active' });

    await post(buttonReply(phone, 'no', 'No'));
    await waitForWebhook(phone, 'flow.session_completed');
    expect(await sessionOf(flowId, phone, 'handed_off')).toMatchObject({ flow_version: 1 });
    const other = randomPhone();
    await text(other, keyword);
    const [ask] = await waitForSends(other, 1);
    expect(ask.body).toMatchObject({ interactive: { body: { text: 'Version two?' } } });
  });
});
