import { createBmClient, sendMessage, unwrap, pollMessage, type BmClient } from '@bm/client';
import { startFullStack, type FullStack } from '../support/full-stack';
import { createTenant, randomPhone, type TenantFixture } from '../support/stack';

describe('the API behind the dashboard: numbers and the filtered sent list', () => {
  let env: FullStack;
  let t: TenantFixture;
  let other: TenantFixture;
  let client: BmClient;

  beforeAll(async () => {
    env = await startFullStack();
    t = await createTenant(env.stack);
    other = await createTenant(env.stack);
    client = createBmClient({ baseUrl: env.gatewayUrl, apiKey: t.apiKey });
  });
  afterAll(() => env.stop());

  it("when a tenant lists its numbers, then it sees its own account with today's capacity and no other tenant's", async () => {
    const ack = await sendMessage(client, {
      channel_account_id: t.channelAccountId,
      phone: `+${randomPhone()}`,
      message_type: 'template',
      data: { name: 'hello_world' },
    });
    await pollMessage(client, ack.message_log_id, { until: ['sent', 'delivered', 'read'], intervalMs: 200 });
    const { channel_accounts } = unwrap(await client.GET('/api/v1/channel-accounts'));
    expect(channel_accounts.map((a) => a.channel_account_id)).toEqual([t.channelAccountId]);
    expect(channel_accounts[0]).toMatchObject({
      phone_number_id: t.phoneNumberId,
      status: 'active',
      tier: 'TIER_1K',
      webhooks_subscribed: true,
      quality_event: null,
      capacity: { daily_limit: 1000, used_today: 1, remaining: 999 },
    });
    expect(channel_accounts.map((a) => a.channel_account_id)).not.toContain(other.channelAccountId);
  });

  it('when the sent list is filtered by number, type and date range, then only matching messages come back', async () => {
    const phone = `+${randomPhone()}`;
    const text = await sendMessage(client, {
      channel_account_id: t.channelAccountId,
      phone,
      message_type: 'template',
      data: { name: 'hello_world' },
    });
    const list = (query: Record<string, string>) =>
      client
        .GET('/api/v1/messages', { params: { query: { to_phone: phone, ...query } } })
        .then((r) => unwrap(r).messages.map((m) => m.message_log_id));
    expect(await list({ channel_account_id: t.channelAccountId })).toEqual([text.message_log_id]);
    expect(await list({ channel_account_id: other.channelAccountId })).toEqual([]);
    expect(await list({ message_type: 'template' })).toEqual([text.message_log_id]);
    expect(await list({ message_type: 'text' })).toEqual([]);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    expect(await list({ created_from: hourAgo, created_to: inAnHour })).toEqual([text.message_log_id]);
    expect(await list({ created_to: hourAgo })).toEqual([]);
  });
});
