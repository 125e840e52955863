import request from 'supertest';
import { INTERNAL_HEADERS } from '@bm/contracts';
import type { NotificationDto } from '../src/domain/list-notifications.use-case';
import { ADMIN, setupIngress, type IngressContext } from './factories/ingress';
import { inboundTextBody, upstreamId, wamid } from './factories/webhooks';

describe('GET /api/v1/notifications: live-chat requests', () => {
  let ingress: IngressContext;
  let phoneNumberId: string;
  let owner: { tenant_id: number; channel_account_id: string };

  beforeAll(async () => {
    ingress = await setupIngress();
    phoneNumberId = upstreamId();
    owner = ingress.messaging.register(phoneNumberId);
  });
  afterAll(() => ingress.stop());

  const list = (tenantId: number, query = '') =>
    request(ingress.url)
      .get(`/api/v1/notifications${query}`)
      .set({ ...ADMIN, [INTERNAL_HEADERS.tenantId]: String(tenantId) });
  /** A customer message sent at the given Unix second. */
  const write = async (customer: string, text: string, at: number) => {
    const body = inboundTextBody(phoneNumberId, customer, text) as {
      entry: Array<{ changes: Array<{ value: { messages: Array<{ timestamp: string }> } }> }>;
    };
    body.entry[0].changes[0].value.messages[0].timestamp = String(at);
    await ingress.postJson(body).expect(200);
    await ingress.settle();
  };

  it('when customers write to a number of the tenant, then one request per customer per hour is listed, newest first', async () => {
    const hour = Math.floor(Date.now() / 3_600_000) * 3600;
    const [first, second] = [upstreamId(), upstreamId()];
    await write(first, 'Hello, I need help', hour + 10);
    await write(first, 'Anyone?', hour + 600);
    await write(second, 'Hi', hour + 700);
    await write(first, 'Still waiting', hour + 3600 + 5);

    const res = await list(owner.tenant_id).expect(200);
    const notifications = res.body.data.notifications as NotificationDto[];
    expect(res.body.data.pagination).toEqual({ current_page: 1, per_page: 50, total: 3, last_page: 1 });
    expect(notifications.map((n) => [n.customer_phone, n.text])).toEqual([
      [first, 'Still waiting'],
      [second, 'Hi'],
      [first, 'Hello, I need help'],
    ]);
    expect(notifications[2]).toEqual({
      notification_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      type: 'live_chat_request',
      channel_account_id: owner.channel_account_id,
      phone_number_id: phoneNumberId,
      customer_phone: first,
      customer_name: 'Sheena Nelson',
      message_id: expect.stringMatching(/^wamid\./),
      text: 'Hello, I need help',
      created_at: expect.stringMatching(/Z$/),
    });
    const paged = await list(owner.tenant_id, '?per_page=2&page=2').expect(200);
    expect(paged.body.data.notifications).toHaveLength(1);
    expect(paged.body.data.pagination).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
  });

  it('when another tenant asks, or a number is unknown, then it sees none of them', async () => {
    await ingress.postJson(inboundTextBody(upstreamId(), upstreamId(), 'to nobody', wamid())).expect(200);
    await ingress.settle();
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
