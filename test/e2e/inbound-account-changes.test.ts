import { createHmac } from 'node:crypto';
import request from 'supertest';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { testEnv, waitFor } from '@bm/platform/testing';
import { collectEvents } from '../support/events';
import { startFullStack, type FullStack } from '../support/full-stack';
import type { IngressFixture } from '../support/ingress';
import { createTenant, type Stack, type TenantFixture } from '../support/stack';

/*
 * Account-level changes (no metadata: only the WABA names the owner) through real signed webhooks:
 * sandbox or test -> webhook-ingress -> messaging -> events and notifications.
 */
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
  const postChange = (field: string, value: Record<string, unknown>) => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: t.wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }],
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
  const templateStatus = async (name: string, language: string) => {
    const res = await request(stack.gatewayUrl).get('/api/v1/templates').set(t.auth).expect(200);
    const found = (res.body.data.templates as Array<{ name: string; language: string; status: string }>).find(
      (x) => x.name === name && x.language === language,
    );
    return found?.status;
  };
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
