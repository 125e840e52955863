import { createHmac } from 'node:crypto';
import request from 'supertest';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { testEnv, waitFor } from '@bm/platform/testing';
import { collectEvents } from '../support/events';
import { startFullStack, type FullStack } from '../support/full-stack';
import type { IngressFixture } from '../support/ingress';
import { checkWebhookDeliveriesAgainstOpenApi } from '../support/openapi-check';
import { createTenant, randomPhone, type Stack, type TenantFixture } from '../support/stack';
import { startReceiver } from '../../services/webhook-dispatcher/test/factories/receiver';

/*
 * Account-level changes (no metadata: only the WABA names the owner) through real signed webhooks:
 * sandbox or test -> webhook-ingress -> messaging -> events and notifications.
 */
const bodyText = (text: string) => ({ type: 'body', parameters: [{ type: 'text', text }] });

describe('template status, number quality and account updates through signed webhooks', () => {
  let full: FullStack;
  let stack: Stack;
  let ingress: IngressFixture;
  let t: TenantFixture;
  let events: Awaited<ReturnType<typeof collectEvents>>;

  beforeAll(async () => {
    full = await startFullStack();
    ({ stack, ingress } = full);
    t = await createTenant(stack);
    events = await collectEvents(stack, ['template.status_changed', 'account.quality_event']);
  });
  afterAll(() => full.stop());

  /** An account-level change as the upstream posts it, signed with the app secret. */
  const postChange = (field: string, value: Record<string, unknown>, tenant = t) => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: tenant.wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }],
    });
    const signature = createHmac('sha256', ingress.service.deps.config.INGRESS_APP_SECRET)
      .update(body)
      .digest('hex');
    return request(ingress.url)
      .post('/api/webhooks/channel')
      .set({ 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${signature}` })
      .send(body)
      .expect(200);
  };
  const listedTemplate = async (name: string, language: string, tenant = t) => {
    const res = await request(stack.gatewayUrl).get('/api/v1/templates').set(tenant.auth).expect(200);
    return (res.body.data.templates as Array<Record<string, unknown>>).find(
      (x) => x.name === name && x.language === language,
    );
  };
  const templateStatus = async (name: string, language: string, tenant = t) =>
    (await listedTemplate(name, language, tenant))?.status;
  /** The upstream's numeric id of a template, as its webhooks carry it. */
  const upstreamTemplateId = async (tenant: TenantFixture, name: string, language: string) => {
    const res = await request(stack.sandboxUrl).get(`/_sandbox/templates/${tenant.wabaId}`).expect(200);
    const found = (res.body.data as Array<{ id: string; name: string; language: string }>).find(
      (x) => x.name === name && x.language === language,
    )!;
    return Number(found.id);
  };
  const sendTemplate = (tenant: TenantFixture, name: string, components?: unknown[]) =>
    request(stack.gatewayUrl).post('/api/v1/messages/send').set(tenant.auth).send({
      channel_account_id: tenant.channelAccountId,
      phone: randomPhone(),
      message_type: 'template',
      data: { name, components },
    });
  const templateEvents = (tenant: TenantFixture) =>
    events.filter(
      (e) =>
        e.routingKey === 'template.status_changed' &&
        e.payload.channel_account_id === tenant.channelAccountId,
    );
  // Through the gateway that knows webhook-ingress, with the tenant's key, as a client reads them.
  const reviews = async () =>
    (
      (await request(full.gatewayUrl).get('/api/v1/notifications').set(t.auth).expect(200)).body.data
        .notifications as Array<Record<string, unknown>>
    ).filter((n) => n.type === 'template_review');

  it('when the upstream rejects, approves and pauses a template, then its status follows, each change is emitted and the decisions reach the admin', async () => {
    const listed = await request(stack.gatewayUrl).get('/api/v1/templates').set(t.auth).expect(200);
    const { name, language } = (
      listed.body.data.templates as Array<{ name: string; language: string; status: string }>
    ).find((x) => x.status === 'APPROVED')!;
    const change = (status: string, reason = 'NONE') =>
      request(stack.sandboxUrl)
        .patch(`/_sandbox/templates/${t.wabaId}/${name}/${language}`)
        .send({ status, reason })
        .expect(200);
    const changedTo = (status: string) =>
      waitFor(
        () =>
          events.find(
            (e) =>
              e.routingKey === 'template.status_changed' &&
              e.payload.channel_account_id === t.channelAccountId &&
              e.payload.status === status,
          ),
        { what: `template.status_changed ${status}` },
      );

    await change('REJECTED', 'INVALID_FORMAT');
    expect((await changedTo('REJECTED')).payload).toMatchObject({
      tenant_id: t.tenantId,
      name,
      language,
      status: 'REJECTED',
      reason: 'INVALID_FORMAT',
    });
    expect(await templateStatus(name, language)).toBe('REJECTED');

    await change('APPROVED');
    await changedTo('APPROVED');
    expect(await templateStatus(name, language)).toBe('APPROVED');

    await change('PAUSED');
    await changedTo('PAUSED');
    expect(await templateStatus(name, language)).toBe('PAUSED');

    const found = await waitFor(async () => ((await reviews()).length >= 2 ? reviews() : undefined), {
      what: 'two template reviews',
    });
    expect(found.map((n) => [n.template_name, n.status, n.reason])).toEqual([
      [name, 'APPROVED', null],
      [name, 'REJECTED', 'INVALID_FORMAT'],
    ]);
    // The pause is an event for the client's systems, not a decision an admin waits for.
    expect(events.filter((e) => e.routingKey === 'template.status_changed')).toHaveLength(3);
    expect(await reviews()).toHaveLength(2);
  });

  it("when the upstream writes the language as en-US or pt-BR (Meta's reference examples), then the update reaches the template listed as en_US or pt_BR", async () => {
    const tenant = await createTenant(stack);
    // Meta's reference example of an approval, as written: hyphenated language, reason NONE, numeric id.
    await postChange(
      'message_template_status_update',
      {
        event: 'APPROVED',
        message_template_id: await upstreamTemplateId(tenant, 'pending_tpl', 'en_US'),
        message_template_name: 'pending_tpl',
        message_template_language: 'en-US',
        reason: 'NONE',
        message_template_category: 'UTILITY',
      },
      tenant,
    );
    const approved = await waitFor(
      () => templateEvents(tenant).find((e) => e.payload.name === 'pending_tpl'),
      { what: 'template.status_changed for pending_tpl' },
    );
    expect(approved.payload).toMatchObject({
      language: 'en_US',
      status: 'APPROVED',
      reason: null,
      flag: null,
    });
    expect(await templateStatus('pending_tpl', 'en_US', tenant)).toBe('APPROVED');
    expect((await sendTemplate(tenant, 'pending_tpl', [bodyText('Monday')])).status).toBe(202);

    await postChange(
      'message_template_status_update',
      {
        event: 'PAUSED',
        message_template_id: await upstreamTemplateId(tenant, 'sample_notice_03', 'pt_BR'),
        message_template_name: 'sample_notice_03',
        message_template_language: 'pt-BR',
        reason: null,
        disable_info: null,
        other_info: { title: 'FIRST_PAUSE', description: 'Your template has been paused for low quality.' },
      },
      tenant,
    );
    await waitFor(() => templateEvents(tenant).find((e) => e.payload.name === 'sample_notice_03'), {
      what: 'template.status_changed for sample_notice_03',
    });
    expect(await templateStatus('sample_notice_03', 'pt_BR', tenant)).toBe('PAUSED');
    expect(templateEvents(tenant)).toHaveLength(2);
  });

  it('when the upstream flags an approved template, then it stays APPROVED and sendable with the flag and its reason in its details and the outbound event, until a later PAUSED', async () => {
    checkWebhookDeliveriesAgainstOpenApi();
    const tenant = await createTenant(stack);
    const receiver = await startReceiver();
    try {
      await request(full.gatewayUrl)
        .put('/api/v1/webhooks/settings')
        .set(tenant.auth)
        .send({ url: `${receiver.url}/hooks`, events: ['template.status_changed'] })
        .expect(200);
      const templateId = await upstreamTemplateId(tenant, 'otp_code', 'en_US');
      const flagged = {
        event: 'FLAGGED',
        message_template_id: templateId,
        message_template_name: 'otp_code',
        message_template_language: 'en-US',
        reason: 'ABUSIVE_CONTENT',
        message_template_category: 'AUTHENTICATION',
      };
      await postChange('message_template_status_update', flagged, tenant);

      const event = await waitFor(() => templateEvents(tenant)[0], { what: 'template.status_changed' });
      const flag = { reason: 'ABUSIVE_CONTENT', flagged_at: expect.any(String) };
      expect(event.payload).toMatchObject({
        name: 'otp_code',
        status: 'APPROVED',
        reason: 'ABUSIVE_CONTENT',
        flag,
      });
      const listed = await listedTemplate('otp_code', 'en_US', tenant);
      expect(listed).toMatchObject({ status: 'APPROVED', flag });
      expect(Date.parse(String((listed?.flag as { flagged_at: string }).flagged_at))).not.toBeNaN();
      expect((await sendTemplate(tenant, 'otp_code', [bodyText('123456')])).status).toBe(202);
      const delivered = await waitFor(() => receiver.requests.find((r) => r.body.includes('"otp_code"')), {
        what: 'template.status_changed webhook',
        timeoutMs: 20_000,
      });
      expect(JSON.parse(delivered.body)).toMatchObject({
        event: 'template.status_changed',
        tenant_id: tenant.tenantId,
        name: 'otp_code',
        language: 'en_US',
        status: 'APPROVED',
        category: 'AUTHENTICATION',
        reason: 'ABUSIVE_CONTENT',
        flag,
      });
      await postChange(
        'message_template_status_update',
        {
          event: 'PAUSED',
          message_template_id: templateId,
          message_template_name: 'otp_code',
          message_template_language: 'en-US',
          reason: 'NONE',
          other_info: { title: 'FIRST_PAUSE', description: 'Your template has been paused for low quality.' },
        },
        tenant,
      );
      const paused = await waitFor(() => templateEvents(tenant).find((e) => e.payload.status === 'PAUSED'), {
        what: 'template.status_changed PAUSED',
      });
      expect(paused.payload).toMatchObject({ status: 'PAUSED', reason: null, flag });
      expect(await templateStatus('otp_code', 'en_US', tenant)).toBe('PAUSED');
      const refused = await sendTemplate(tenant, 'otp_code', [bodyText('123456')]);
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('TEMPLATE_PAUSED');

      // Reinstated: approved again, the flag gone. Of the three changes only this one is a review decision.
      await postChange(
        'message_template_status_update',
        { ...flagged, event: 'REINSTATED', reason: 'NONE' },
        tenant,
      );
      const reinstated = await waitFor(() => templateEvents(tenant)[2], { what: 'template.status_changed' });
      expect(reinstated.payload).toMatchObject({ status: 'APPROVED', reason: null, flag: null });
      expect(await listedTemplate('otp_code', 'en_US', tenant)).toMatchObject({
        status: 'APPROVED',
        flag: null,
      });
      expect(templateEvents(tenant).map((e) => e.payload.status)).toEqual(['APPROVED', 'PAUSED', 'APPROVED']);
      const reviews = async () =>
        (await request(full.gatewayUrl).get('/api/v1/notifications').set(tenant.auth).expect(200)).body.data
          .notifications as Array<Record<string, unknown>>;
      const found = await waitFor(async () => ((await reviews()).length > 0 ? reviews() : undefined), {
        what: 'a template review',
      });
      expect(found.map((n) => [n.template_name, n.status, n.reason])).toEqual([
        ['otp_code', 'APPROVED', null],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('when the upstream moves the number to another tier, then its daily limit follows and an account.quality_event goes out', async () => {
    await postChange('phone_number_quality_update', {
      display_phone_number: '15550001111',
      event: 'THROUGHPUT_UPGRADE',
      current_limit: 'TIER_10K',
    });
    const event = await waitFor(
      () =>
        events.find(
          (e) => e.routingKey === 'account.quality_event' && e.payload.kind === 'phone_number_quality_update',
        ),
      { what: 'account.quality_event for the tier' },
    );
    expect(event.payload).toMatchObject({
      tenant_id: t.tenantId,
      channel_account_id: t.channelAccountId,
      details: { event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_10K', previous_tier: 'TIER_1K' },
    });
    const capacity = await request(stack.messagingUrl)
      .get(`/internal/v1/channel-accounts/${t.channelAccountId}/capacity`)
      .set({
        [INTERNAL_HEADERS.token]: testEnv().INTERNAL_TOKEN!,
        [INTERNAL_HEADERS.tenantId]: String(t.tenantId),
      })
      .expect(200);
    expect(capacity.body.data.daily_limit).toBe(10_000);
  });

  it('when the upstream restricts the account, then the client gets an account.quality_event with the details', async () => {
    const restriction = [{ restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: 1641330498 }];
    await postChange('account_update', { event: 'ACCOUNT_RESTRICTION', restriction_info: restriction });
    const event = await waitFor(
      () =>
        events.find((e) => e.routingKey === 'account.quality_event' && e.payload.kind === 'account_update'),
      { what: 'account.quality_event for the restriction' },
    );
    expect(event.payload).toMatchObject({
      tenant_id: t.tenantId,
      channel_account_id: t.channelAccountId,
      details: { event: 'ACCOUNT_RESTRICTION', restriction_info: restriction },
    });
  });
});
