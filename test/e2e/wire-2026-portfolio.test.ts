import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { publishInbound } from '../support/events';
import { sendTemplate, waitForStatus } from '../support/messages';
import {
  ADMIN_TOKEN,
  createTenant,
  randomPhone,
  startStack,
  type Stack,
  type TenantFixture,
} from '../support/stack';

/**
 * CONTRACT.md, "Messaging limits per business portfolio": every number of a portfolio (`business_id`, default
 * its `waba_id`) draws on one rolling 24 h capacity and has the portfolio's tier.
 */
describe('business portfolios share one daily limit', () => {
  let stack: Stack;
  let t: TenantFixture;
  let second: string;
  const businessId = `9${Date.now()}`;
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

  beforeAll(async () => {
    stack = await startStack();
    t = await createTenant(stack, 'TIER_250', { business_id: businessId });
    // A second number of the same portfolio, connected asking for another tier: it takes the portfolio's.
    const res = await request(stack.gatewayUrl)
      .post(`/admin/v1/tenants/${t.tenantId}/channel-accounts`)
      .set(admin)
      .send({
        phone_number_id: `3${Date.now()}`,
        waba_id: t.wabaId,
        business_id: businessId,
        display_phone_number: '+1 555 000 2222',
        access_token: 'sandbox-token',
        tier: 'TIER_10K',
      })
      .expect(201);
    second = res.body.data.channel_account_id as string;
    expect(res.body.data).toMatchObject({ business_id: businessId, tier: 'TIER_250' });
  });
  afterAll(() => stack.stop());

  const numbers = async () =>
    (await request(stack.gatewayUrl).get('/api/v1/channel-accounts').set(t.auth).expect(200)).body.data
      .channel_accounts as Array<Record<string, unknown>>;

  it('when each number of a portfolio opens conversations, then both show the portfolio used, a customer counted once', async () => {
    const [a, b] = [randomPhone(), randomPhone()];
    const ids = [
      await sendTemplate(stack, t, { phone: a }),
      await sendTemplate(stack, t, { phone: b, channel_account_id: second }),
      // The same customer from the other number of the portfolio opens no second conversation.
      await sendTemplate(stack, t, { phone: a, channel_account_id: second }),
    ];
    for (const id of ids) await waitForStatus(stack, t, id, ['sent']);
    const listed = await numbers();
    expect(listed).toHaveLength(2);
    for (const n of listed) {
      expect(n).toMatchObject({
        business_id: businessId,
        tier: 'TIER_250',
        capacity: { daily_limit: 250, used_today: 2, remaining: 248 },
      });
    }
  });

  it('when the upstream sets the portfolio limit (business_capability_update), then every number of it has the tier', async () => {
    await publishInbound(stack, 'inbound.account_update', {
      waba_id: t.wabaId,
      phone_number_id: null,
      field: 'business_capability_update',
      event: null,
      details: { max_daily_conversations_per_business: 'TIER_2K' },
    });
    await waitFor(async () => (await numbers()).every((n) => n.tier === 'TIER_2K') || undefined, {
      what: 'the portfolio on TIER_2K',
    });
    for (const n of await numbers()) expect((n.capacity as { daily_limit: number }).daily_limit).toBe(2_000);
  });

  it('when a number names no portfolio, then its WABA is its portfolio and it shares nothing with others', async () => {
    const other = await createTenant(stack, 'TIER_NOT_SET');
    const [listed] = (
      await request(stack.gatewayUrl).get('/api/v1/channel-accounts').set(other.auth).expect(200)
    ).body.data.channel_accounts as Array<Record<string, unknown>>;
    expect(listed).toMatchObject({
      business_id: other.wabaId,
      tier: 'TIER_NOT_SET',
      capacity: { daily_limit: 250, used_today: 0, remaining: 250 },
    });
  });
});
