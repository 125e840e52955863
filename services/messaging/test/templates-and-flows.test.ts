import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { UPSTREAM_TEMPLATES } from './factories/fake-upstream';
import { freshPhone, useMessaging } from './factories/messaging';

describe('messaging alone: templates and conversation flows', () => {
  const { m, t } = useMessaging();

  const templates = async () =>
    (await t.api.get(`/api/v1/templates?channel_account_id=${t.channelAccountId}`).expect(200)).body.data
      .templates as Array<Record<string, unknown>>;

  it("when a number is connected, then its WABA's templates are fetched from the upstream and listed", async () => {
    expect(t.account).toMatchObject({ channel_account_id: t.channelAccountId, webhooks_subscribed: true });
    const listed = await templates();
    expect(listed.map((x) => [x.name, x.status, x.category])).toEqual(
      expect.arrayContaining(UPSTREAM_TEMPLATES.map((x) => [x.name, x.status, x.category])),
    );
  });

  it('when a template is submitted and the upstream approves it, then it goes PENDING to APPROVED with an event for each', async () => {
    const name = `welcome_${uniqueSuffix()}`;
    const submitted = await t.api
      .post('/api/v1/templates', {
        channel_account_id: t.channelAccountId,
        name,
        language: 'en_US',
        category: 'UTILITY',
        components: [
          { type: 'BODY', text: 'Welcome {{1}}, glad to have you.', example: { body_text: [['Ana']] } },
        ],
      })
      .expect(201);
    expect(submitted.body.data).toMatchObject({
      name,
      status: 'PENDING',
      channel_account_id: t.channelAccountId,
    });
    await m.publish('inbound.template_status', {
      waba_id: t.wabaId,
      phone_number_id: null,
      template_id: m.upstream.templateIdOf(name),
      name,
      language: 'en_US',
      event: 'APPROVED',
      reason: null,
      category: 'UTILITY',
    });
    await waitFor(async () => (await templates()).find((x) => x.name === name && x.status === 'APPROVED'), {
      what: 'template approved',
    });
    await m.firstPublished('template.status_changed', 'name', name);
    expect(m.publishedWith('template.submitted', 'name', name)).toEqual([
      expect.objectContaining({ tenant_id: t.tenantId, status: 'PENDING' }),
    ]);
    expect(m.publishedWith('template.status_changed', 'name', name)).toEqual([
      expect.objectContaining({ tenant_id: t.tenantId, status: 'APPROVED' }),
    ]);
  });

  it('when the upstream rejects a template with a reason, then the list shows the reason until it is approved', async () => {
    const name = `promo_${uniqueSuffix()}`;
    await t.api
      .post('/api/v1/templates', {
        channel_account_id: t.channelAccountId,
        name,
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Our sale starts today.' }],
      })
      .expect(201);
    const status = (event: string, reason: string | null) =>
      m.publish('inbound.template_status', {
        waba_id: t.wabaId,
        phone_number_id: null,
        template_id: m.upstream.templateIdOf(name),
        name,
        language: 'en_US',
        event,
        reason,
        category: 'MARKETING',
      });
    await status('REJECTED', 'INVALID_FORMAT');
    const rejected = await waitFor(
      async () => (await templates()).find((x) => x.name === name && x.status === 'REJECTED'),
      { what: 'template rejected' },
    );
    expect(rejected.rejected_reason).toBe('INVALID_FORMAT');
    await status('APPROVED', null);
    const approved = await waitFor(
      async () => (await templates()).find((x) => x.name === name && x.status === 'APPROVED'),
      { what: 'template approved' },
    );
    expect(approved.rejected_reason).toBeNull();
  });

  /** Ask with two buttons: yes thanks the customer and ends, no hands off to a person. */
  const activeFlow = async (keyword: string, settings: Record<string, unknown> = {}) => {
    const answers = { yes: 'thanks', no: 'human' };
    const steps = [
      {
        id: 'ask',
        type: 'send_buttons',
        body: 'Do you want to order?',
        buttons: Object.keys(answers).map((id) => ({ id, title: id === 'yes' ? 'Yes' : 'No' })),
        next: 'answer',
      },
      {
        id: 'answer',
        type: 'wait_for_reply',
        save_as: 'wants',
        branches: Object.entries(answers).map(([id, next]) => ({ button_id: id, next })),
        fallback: 'ask',
      },
      { id: 'thanks', type: 'send_text', text: 'Thanks, you said {{wants}}.', next: 'done' },
      { id: 'done', type: 'end' },
      { id: 'human', type: 'handoff' },
    ];
    const trigger = { type: 'keyword', keywords: [keyword] };
    const created = await t.api
      .post('/api/v1/flows', {
        channel_account_id: t.channelAccountId,
        name: `Order ${keyword}`,
        trigger,
        steps,
        ...settings,
      })
      .expect(201);
    const flowId = created.body.data.flow_id as string;
    await t.api.post(`/api/v1/flows/${flowId}/activate`).expect(200);
    return flowId;
  };
  const buttonReply = (phone: string, id: string, title: string) =>
    t.inbound(phone, title, {
      type: 'interactive',
      button_payload: id,
      raw: { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id, title } } },
    });
  const sessionOf = (flowId: string, phone: string, status: string) =>
    waitFor(
      async () => {
        const res = await t.api.get(`/api/v1/flows/${flowId}/sessions`).expect(200);
        const sessions = res.body.data.sessions as Array<Record<string, unknown>>;
        return sessions.find((s) => s.phone === phone && s.status === status);
      },
      { what: `${status} session of ${phone}` },
    );
  const sendsTo = (phone: string, count: number) =>
    waitFor(() => m.upstream.sendsTo(phone).length >= count && m.upstream.sendsTo(phone), {
      what: `${count} sends to ${phone}`,
    });

  it("when a customer writes a flow's keyword and answers yes, then the flow asks, thanks them and completes with the answer", async () => {
    const keyword = `order${uniqueSuffix()}`;
    const flowId = await activeFlow(keyword);
    const phone = freshPhone();
    await t.inbound(phone, keyword);
    const [ask] = await sendsTo(phone, 1);
    expect(ask.body).toMatchObject({ type: 'interactive', interactive: { type: 'button' } });
    await buttonReply(phone, 'yes', 'Yes');
    const [, thanks] = await sendsTo(phone, 2);
    expect(thanks.body).toMatchObject({ type: 'text', text: { body: 'Thanks, you said yes.' } });
    expect(await sessionOf(flowId, phone, 'completed')).toMatchObject({ variables: { wants: 'yes' } });
    await m.firstPublished('flow.session_completed', 'phone', phone);
    expect(m.publishedWith('live_chat.requested', 'customer_phone', phone)).toEqual([]);
  });

  it('when the customer answers no, then the session is handed off and a person is asked for', async () => {
    const keyword = `help${uniqueSuffix()}`;
    const flowId = await activeFlow(keyword);
    const phone = freshPhone();
    await t.inbound(phone, keyword);
    await sendsTo(phone, 1);
    await buttonReply(phone, 'no', 'No');
    await sessionOf(flowId, phone, 'handed_off');
    const request = await m.firstPublished('live_chat.requested', 'customer_phone', phone);
    expect(request).toMatchObject({
      reason: 'flow_handoff',
      text: 'No',
      channel_account_id: t.channelAccountId,
    });
  });

  it('when no active flow takes a message, then it asks for a person, and nothing is sent to the customer', async () => {
    const phone = freshPhone();
    await t.inbound(phone, 'Is anyone there?');
    const request = await m.firstPublished('live_chat.requested', 'customer_phone', phone);
    expect(request).toMatchObject({ reason: 'no_automation', text: 'Is anyone there?' });
    expect(m.upstream.sendsTo(phone)).toEqual([]);
  });

  it("when the customer does not answer within the flow's timeout, then the session ends as timed out", async () => {
    const keyword = `slow${uniqueSuffix()}`;
    const flowId = await activeFlow(keyword, { timeout_seconds: 1 });
    const phone = freshPhone();
    await t.inbound(phone, keyword);
    expect(await sessionOf(flowId, phone, 'active')).toMatchObject({ current_step: 'answer' });
    const ended = await sessionOf(flowId, phone, 'timed_out');
    const cancelled = await m.firstPublished('flow.session_cancelled', 'phone', phone);
    expect(cancelled).toMatchObject({ flow_id: flowId, session_id: ended.session_id });
  });
});
