import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { allRecipients, postCampaign, waitForCampaign } from '../support/campaigns';
import { inboundText, publishInbound } from '../support/events';
import { orderUpdateData, postSend, readMessage, sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, randomPhone, startStack, type Stack, type TenantFixture } from '../support/stack';

/**
 * CONTRACT.md, the network of late 2026, customers without a phone number: a customer is addressed by phone or by
 * user id, and once a message of theirs names both, they are one customer (window, opt-outs); opt-outs and campaign
 * recipients take `user_id`; `user_changed_number` and `user_changed_user_id` move the customer to the new address.
 * Inbound items go in where webhook-ingress publishes them; everything else over the real API.
 */
describe('customers by phone and by user id', () => {
  let stack: Stack;
  let t: TenantFixture;
  let seq = 0;

  beforeAll(async () => {
    stack = await startStack({ campaignEnv: {} });
    t = await createTenant(stack);
  });
  afterAll(() => stack.stop());

  const randomUserId = () =>
    `US.${Date.now()}${String((seq += 1)).padStart(4, '0')}${Math.floor(Math.random() * 1e6)}`;
  const customerWrites = async (from: string | null, userId: string | null, text = 'hello') => {
    const item = { ...inboundText(t, from ?? '', text), from, from_user_id: userId, username: null };
    await publishInbound(stack, 'inbound.message', item);
    return item;
  };
  const systemMessage = async (
    from: string | null,
    userId: string | null,
    system: Record<string, unknown>,
  ) => {
    const item = {
      ...inboundText(t, from ?? '', ''),
      from,
      from_user_id: userId,
      username: null,
      type: 'system',
      text: null,
      raw: { ...(from ? { from } : {}), type: 'system', system },
    };
    await publishInbound(stack, 'inbound.message', item);
  };
  const optOuts = async () =>
    (await request(stack.gatewayUrl).get('/api/v1/opt-outs?per_page=100').set(t.auth).expect(200)).body.data
      .opt_outs as Array<Record<string, unknown>>;
  const listed = async (address: { phone?: string; user_id?: string }) =>
    (await optOuts()).find((o) =>
      address.phone ? o.phone === address.phone : o.user_id === address.user_id,
    );
  // The customer by `to` alone (postSend's random phone left out).
  const text = (to: Record<string, string>) =>
    postSend(stack, t, { phone: undefined, ...to, message_type: 'text', data: { text: 'We can help' } });
  const marketing = (to: Record<string, string>) =>
    postSend(stack, t, { phone: undefined, ...to, data: orderUpdateData('Ana', '#7') });
  const untilStatus = (send: () => Promise<{ status: number }>, status: number, what: string) =>
    waitFor(async () => ((await send()).status === status ? true : undefined), { what });

  it('when a message names both the phone and the user id, then a send by user id finds the window and the phone', async () => {
    const [phone, userId] = [randomPhone(), randomUserId()];
    // A user id the product has never seen has no window.
    const unseen = await text({ user_id: userId });
    expect(unseen.body.error.code).toBe('OUTSIDE_SERVICE_WINDOW');
    await customerWrites(phone, userId);
    await untilStatus(() => text({ user_id: userId }), 202, 'the window through the link');
    const res = await text({ user_id: userId }).expect(202);
    const sent = await waitForStatus(stack, t, res.body.data.message_log_id as number, ['sent']);
    // The product knows the phone now: the log shows both; the upstream is still addressed by user id.
    expect(sent).toMatchObject({ to_phone: phone, to_user_id: userId });
    const upstream = (await request(stack.sandboxUrl).get('/_sandbox/sends')).body.data as Array<{
      body: Record<string, unknown>;
    }>;
    expect(upstream.find((s) => s.body.recipient === userId)?.body.to).toBeUndefined();
  });

  it('when a customer writes by user id only after being linked, then the window is theirs under either address', async () => {
    const [phone, userId] = [randomPhone(), randomUserId()];
    await customerWrites(phone, userId);
    await customerWrites(null, userId, 'me again');
    await untilStatus(() => text({ phone }), 202, 'the window by phone');
    expect((await text({ user_id: userId })).status).toBe(202);
  });

  it('when one address of a linked customer opts out, then the other is opted out too and lifting one lifts both', async () => {
    const [phone, userId] = [randomPhone(), randomUserId()];
    await customerWrites(phone, userId);
    // The link reaches the opt-out list with the customer's message.
    await waitFor(async () => ((await text({ user_id: userId })).status === 202 ? true : undefined), {
      what: 'the link',
    });
    await waitFor(
      async () => {
        await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({ phone });
        return (await listed({ user_id: userId })) ?? undefined;
      },
      { what: 'the linked user id on the list' },
    );
    expect(await listed({ phone })).toEqual({ phone, source: 'api', created_at: expect.any(String) });
    expect(await listed({ user_id: userId })).toMatchObject({ phone: null, user_id: userId, source: 'api' });
    const refused = await marketing({ user_id: userId });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('RECIPIENT_OPTED_OUT');

    const removed = await request(stack.gatewayUrl)
      .delete(`/api/v1/opt-outs/${userId}`)
      .set(t.auth)
      .expect(200);
    expect(removed.body.data).toEqual({ phone: null, user_id: userId, deleted: true });
    expect(await listed({ phone })).toBeUndefined();
    expect((await marketing({ phone })).status).toBe(202);
  });

  it('when an opt-out names a user id, then it is listed by it, refuses marketing to it, and is removed by it', async () => {
    const userId = randomUserId();
    const added = await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(t.auth)
      .send({ user_id: userId })
      .expect(201);
    expect(added.body.data).toMatchObject({ phone: null, user_id: userId, source: 'api' });
    await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(t.auth)
      .send({ user_id: userId })
      .expect(200);
    expect((await marketing({ user_id: userId })).status).toBe(422);
    // A UTILITY template still goes.
    await sendTemplate(stack, t, { phone: undefined, user_id: userId });

    const both = await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(t.auth)
      .send({ phone: randomPhone(), user_id: userId })
      .expect(422);
    expect(both.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(both.body.error)).toMatch(/user_id/);
    await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({}).expect(422);

    await request(stack.gatewayUrl).delete(`/api/v1/opt-outs/${userId}`).set(t.auth).expect(200);
    await request(stack.gatewayUrl).delete(`/api/v1/opt-outs/${userId}`).set(t.auth).expect(404);
    expect((await marketing({ user_id: userId })).status).toBe(202);
  });

  it('when a customer changes number, then their opt-out and their window move to the new one', async () => {
    const [phone, newPhone] = [randomPhone(), randomPhone()];
    await customerWrites(phone, null);
    await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({ phone }).expect(201);
    await untilStatus(() => text({ phone }), 202, "the old number's window");

    await systemMessage(phone, null, {
      body: `User A changed from +${phone} to +${newPhone}`,
      wa_id: newPhone,
      type: 'user_changed_number',
    });
    await waitFor(async () => ((await listed({ phone: newPhone })) ? true : undefined), {
      what: 'the opt-out at the new number',
    });
    expect(await listed({ phone })).toBeUndefined();
    expect((await marketing({ phone: newPhone })).status).toBe(422);
    expect((await text({ phone: newPhone })).status).toBe(202);
    expect((await text({ phone })).status).toBe(422);
  });

  it('when a customer gets a new user id, then their opt-out moves to it', async () => {
    const [oldId, newId] = [randomUserId(), randomUserId()];
    await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({ user_id: oldId }).expect(201);
    await systemMessage(null, newId, {
      body: 'User A changed their user id',
      previous_user_id: oldId,
      type: 'user_changed_user_id',
    });
    await waitFor(async () => ((await listed({ user_id: newId })) ? true : undefined), {
      what: 'the opt-out at the new user id',
    });
    expect(await listed({ user_id: oldId })).toBeUndefined();
    await untilStatus(() => marketing({ user_id: newId }), 422, 'marketing refused at the new id');
  });

  it('when campaign recipients are given by user id, then they are sent to by it, and a row with neither is invalid', async () => {
    const [userId, optedOutId, phone] = [randomUserId(), randomUserId(), randomPhone()];
    await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(t.auth)
      .send({ user_id: optedOutId })
      .expect(201);
    const created = await postCampaign(stack, t, {
      template_name: 'order_update',
      template_params: ['Ana', '#9'],
      header_media: { type: 'image', link: 'https://example.com/a.jpg' },
      recipients: [{ user_id: userId }, { phone }, {}, { user_id: 'not-a-user-id' }, { user_id: optedOutId }],
    }).expect(202);
    const id = created.body.data.campaign_id as string;
    const done = await waitForCampaign(stack, t, id, ['completed'], 30_000);
    // The opted-out user id is dropped; the two rows without a valid address fail.
    expect(done).toMatchObject({ requested_count: 5, total_count: 4, sent_count: 2, failed_count: 2 });
    const recipients = await allRecipients(stack, t, id);
    expect(recipients.find((r) => r.user_id === userId)).toMatchObject({ phone: null, status: 'sent' });
    const byPhone = recipients.find((r) => r.phone === phone)!;
    expect(byPhone.status).toBe('sent');
    expect(byPhone).not.toHaveProperty('user_id');
    expect(recipients.find((r) => r.user_id === 'not-a-user-id')).toMatchObject({
      phone: null,
      status: 'failed',
      error_message: 'invalid user id',
    });
    const sent = recipients.find((r) => r.user_id === userId)!;
    const message = await readMessage(stack, t, Number(sent.message_log_id));
    expect(message).toMatchObject({ to_phone: null, to_user_id: userId });

    const both = await postCampaign(stack, t, { recipients: [{ phone, user_id: userId }] }).expect(422);
    expect(both.body.error.code).toBe('VALIDATION_ERROR');
  });
});
