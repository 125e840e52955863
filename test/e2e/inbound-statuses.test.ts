import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { collectEvents } from '../support/events';
import { startIngress, type IngressFixture } from '../support/ingress';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

describe('delivery receipts through real signed webhooks: sandbox -> webhook-ingress -> messaging', () => {
  let stack: Stack;
  let ingress: IngressFixture;
  let t: TenantFixture;
  let events: Awaited<ReturnType<typeof collectEvents>>;

  beforeAll(async () => {
    stack = await startStack();
    ingress = await startIngress(stack);
    t = await createTenant(stack);
    events = await collectEvents(stack, ['message.status_updated']);
  });
  afterAll(async () => {
    await ingress.stop();
    await stack.stop();
  });

  const message = async (id: number) =>
    (await request(stack.gatewayUrl).get(`/api/v1/messages/${id}`).set(t.auth).expect(200)).body
      .data as Record<string, unknown>;
  const sendTemplate = async (phone: string) => {
    const res = await request(stack.gatewayUrl)
      .post('/api/v1/messages/send')
      .set(t.auth)
      .send({
        channel_account_id: t.channelAccountId,
        phone,
        message_type: 'template',
        data: { name: 'hello_world' },
      })
      .expect(202);
    return res.body.data.message_log_id as number;
  };
  const reaches = (id: number, status: string) =>
    waitFor(
      async () => {
        const m = await message(id);
        return m.status === status ? m : undefined;
      },
      { what: `message ${id} ${status}`, timeoutMs: 15_000 },
    );

  it('when a template is sent, then the upstream receipts make it read, each change emitted once', async () => {
    const id = await sendTemplate(randomPhone());
    const read = await reaches(id, 'read');
    expect(read.provider_message_id).toMatch(/^wamid\./);
    await waitFor(
      () => events.filter((e) => e.payload.message_log_id === id && e.payload.status === 'read').length > 0,
      { what: 'read event' },
    );
    // The receipts come as separate webhooks split concurrently, and their order is not guaranteed (nor by the
    // upstream): a `delivered` that lands after `read` changes nothing. Each change is emitted once, in order.
    const emitted = events.filter((e) => e.payload.message_log_id === id).map((e) => e.payload.status);
    expect([
      ['sent', 'delivered', 'read'],
      ['sent', 'read'],
    ]).toContainEqual(emitted);
    const audit = await request(ingress.url)
      .get('/admin/v1/inbound-events?outcome=processed&per_page=100')
      .set(ingress.internal())
      .expect(200);
    expect(audit.body.data.pagination.total).toBeGreaterThanOrEqual(3);
  });

  it('when the upstream fails the message with 131049, then the message is failed with the code in its error', async () => {
    const id = await sendTemplate(randomPhone('0049'));
    const failed = await reaches(id, 'failed');
    expect(failed.error_message).toMatch(/131049/);
  });
});
