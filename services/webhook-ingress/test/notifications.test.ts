import request from 'supertest';
import { INTERNAL_HEADERS } from '@bm/contracts';
import type { LiveChatRequestDto, NotificationDto } from '../src/domain/list-notifications.use-case';
import { ADMIN, useIngress } from './factories/ingress';
import type { Owner } from './factories/fake-messaging';
import { inboundTextBody, upstreamId, wamid } from './factories/webhooks';
import { ulid } from 'ulidx';
import { waitFor } from '@bm/platform/testing';

describe('GET /api/v1/notifications: live-chat requests and template reviews', () => {
  const ingress = useIngress();
  const phoneNumberId = upstreamId();
  let owner: Owner;

  beforeAll(() => {
    owner = ingress.messaging.register(phoneNumberId);
  });

  const list = (tenantId: number, query = '') =>
    request(ingress.url)
      .get(`/api/v1/notifications${query}`)
      .set({ ...ADMIN, [INTERNAL_HEADERS.tenantId]: String(tenantId) });
  /** A live-chat request as messaging raises it (its dedupe key decides how often one may repeat). */
  const raise = (
    customer: string,
    text: string,
    dedupeKey: string,
    tenantId = owner.tenant_id,
    conversationId?: string,
  ) => {
    const eventId = ulid();
    return ingress.broker.publish(
      'live_chat.requested',
      {
        event_id: eventId,
        tenant_id: tenantId,
        occurred_at: new Date().toISOString(),
        channel_account_id: owner.channel_account_id,
        phone_number_id: phoneNumberId,
        customer_phone: customer,
        customer_name: 'Sheena Nelson',
        message_id: wamid(),
        text,
        reason: 'no_automation',
        flow_session_id: null,
        // Absent from producers older than the inbox.
        ...(conversationId === undefined ? {} : { conversation_id: conversationId }),
        dedupe_key: dedupeKey,
      },
      { messageId: eventId },
    );
  };
  const listed = (tenantId: number, count: number) =>
    waitFor(
      async () => {
        const res = await list(tenantId).expect(200);
        return res.body.data.pagination.total >= count && res;
      },
      { what: `${count} notifications` },
    );

  it('when messaging asks for a person, then each request is kept once per dedupe key and listed newest first', async () => {
    const [first, second] = [upstreamId(), upstreamId()];
    await raise(first, 'Hello, I need help', `k:${first}:1`);
    await listed(owner.tenant_id, 1);
    await raise(first, 'Anyone?', `k:${first}:1`);
    const conversationId = ulid();
    await raise(second, 'Hi', `k:${second}:1`, owner.tenant_id, conversationId);
    await listed(owner.tenant_id, 2);
    await raise(first, 'Still waiting', `k:${first}:2`);

    const res = await listed(owner.tenant_id, 3);
    const notifications = res.body.data.notifications as LiveChatRequestDto[];
    expect(res.body.data.pagination).toEqual({ current_page: 1, per_page: 50, total: 3, last_page: 1 });
    expect(notifications.map((n) => [n.customer_phone, n.text])).toEqual([
      [first, 'Still waiting'],
      [second, 'Hi'],
      [first, 'Hello, I need help'],
    ]);
    expect(notifications[1].conversation_id).toBe(conversationId);
    expect(notifications[2]).toEqual({
      notification_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      type: 'live_chat_request',
      channel_account_id: owner.channel_account_id,
      phone_number_id: phoneNumberId,
      customer_phone: first,
      customer_user_id: null,
      customer_name: 'Sheena Nelson',
      message_id: expect.stringMatching(/^wamid\./),
      text: 'Hello, I need help',
      conversation_id: null,
      created_at: expect.stringMatching(/Z$/),
    });
    const paged = await list(owner.tenant_id, '?per_page=2&page=2').expect(200);
    expect(paged.body.data.notifications).toHaveLength(1);
    expect(paged.body.data.pagination).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
  });

  /** A template's status change as messaging emits it; `eventId` is what a redelivery repeats. */
  const templateChanged = (
    status: string,
    name: string,
    eventId = ulid(),
    tenantId = owner.tenant_id,
    reason: string | null = null,
  ) =>
    ingress.broker.publish(
      'template.status_changed',
      {
        event_id: eventId,
        tenant_id: tenantId,
        occurred_at: new Date().toISOString(),
        channel_account_id: owner.channel_account_id,
        template_id: '1689556908129835',
        name,
        language: 'en_US',
        status,
        category: 'MARKETING',
        reason,
      },
      { messageId: eventId },
    );

  it('when the upstream approves or rejects a template, then the admin finds one notification per decision', async () => {
    const reviewer = ingress.messaging.register(upstreamId());
    const reviews = async () =>
      ((await list(reviewer.tenant_id).expect(200)).body.data.notifications as NotificationDto[]).filter(
        (n) => n.type === 'template_review',
      );
    const approved = ulid();
    await templateChanged('APPROVED', 'order_update', approved, reviewer.tenant_id);
    await templateChanged('APPROVED', 'order_update', approved, reviewer.tenant_id);
    await templateChanged('PAUSED', 'order_update', ulid(), reviewer.tenant_id);
    await templateChanged('REJECTED', 'black_friday', ulid(), reviewer.tenant_id, 'INVALID_FORMAT');
    await listed(reviewer.tenant_id, 2);

    const found = await reviews();
    expect(found.map((n) => n.type === 'template_review' && [n.template_name, n.status])).toEqual([
      ['black_friday', 'REJECTED'],
      ['order_update', 'APPROVED'],
    ]);
    expect(found[0]).toEqual({
      notification_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      type: 'template_review',
      channel_account_id: owner.channel_account_id,
      template_id: '1689556908129835',
      template_name: 'black_friday',
      language: 'en_US',
      status: 'REJECTED',
      category: 'MARKETING',
      reason: 'INVALID_FORMAT',
      created_at: expect.stringMatching(/Z$/),
    });
    const others = (await list(owner.tenant_id).expect(200)).body.data.notifications as NotificationDto[];
    expect(others.filter((n) => n.type === 'template_review')).toEqual([]);
  });

  it('when customers write, then ingress itself raises nothing (messaging decides, knowing the flows)', async () => {
    const customer = upstreamId();
    await ingress.postJson(inboundTextBody(phoneNumberId, customer, 'hello', wamid())).expect(200);
    await ingress.settle();
    const res = await list(owner.tenant_id).expect(200);
    const mine = (res.body.data.notifications as NotificationDto[]).filter(
      (n) => n.type === 'live_chat_request' && n.customer_phone === customer,
    );
    expect(mine).toEqual([]);
  });

  it('when another tenant asks, then it sees none of them', async () => {
    const other = await list(owner.tenant_id + 1).expect(200);
    expect(other.body.data).toEqual({
      notifications: [],
      pagination: { current_page: 1, per_page: 50, total: 0, last_page: 1 },
    });
  });

  it('when the tenant or the internal credential is missing, then 401', async () => {
    const noTenant = await request(ingress.url).get('/api/v1/notifications').set(ADMIN);
    expect(noTenant.status).toBe(401);
    expect(noTenant.body.error.code).toBe('INVALID_API_KEY');
    await request(ingress.url).get('/api/v1/notifications').set(INTERNAL_HEADERS.tenantId, '1').expect(401);
  });

  it('when the query is out of range, then 422 VALIDATION_ERROR', async () => {
    const res = await list(owner.tenant_id, '?per_page=500');
    expect(res.status).toBe(422);
    expect(res.body.error.details.errors[0].field).toBe('per_page');
  });
});
