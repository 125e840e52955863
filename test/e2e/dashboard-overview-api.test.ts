import request from 'supertest';
import type { CampaignDto, MessageStatsDto, OptOutListDto } from '@bm/contracts';
import { waitFor } from '@bm/platform/testing';
import { phones, postCampaign, waitForCampaign } from '../support/campaigns';
import { publishInbound, statusReport } from '../support/events';
import { sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, startStack, type Stack, type TenantFixture } from '../support/stack';

let stack: Stack;
let t: TenantFixture;
let small: TenantFixture;

beforeAll(async () => {
  stack = await startStack({ campaignEnv: {} });
  t = await createTenant(stack, 'TIER_10K');
  small = await createTenant(stack, 'TIER_50');
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const get = (tenant: TenantFixture, path: string, query: Record<string, unknown> = {}) =>
  request(stack.gatewayUrl).get(path).query(query).set(tenant.auth);

describe('GET /api/v1/campaigns', () => {
  it('when a tenant has campaigns, then they are listed newest first with progress, filtered by status, and no other tenant sees them', async () => {
    const first = await postCampaign(stack, t, { campaign_name: 'First' }).expect(202);
    const second = await postCampaign(stack, t, {
      campaign_name: 'Second',
      recipients: phones(3).map((phone) => ({ phone })),
    }).expect(202);
    await waitForCampaign(stack, t, second.body.data.campaign_id as string, ['completed']);
    await waitForCampaign(stack, t, first.body.data.campaign_id as string, ['completed']);

    const list = (await get(t, '/api/v1/campaigns').expect(200)).body.data as {
      campaigns: CampaignDto[];
      pagination: unknown;
    };
    expect(list.campaigns.map((c) => c.name)).toEqual(['Second', 'First']);
    expect(list.campaigns[0]).toMatchObject({ total_count: 3, sent_count: 3, failed_count: 0 });
    expect(list.pagination).toMatchObject({ total: 2, current_page: 1 });
    const completed = (await get(t, '/api/v1/campaigns', { status: 'completed', per_page: 1 }).expect(200))
      .body.data;
    expect(completed.campaigns).toHaveLength(1);
    expect(completed.pagination).toMatchObject({ total: 2, last_page: 2 });
    expect((await get(t, '/api/v1/campaigns', { status: 'paused' }).expect(200)).body.data.campaigns).toEqual(
      [],
    );
    expect((await get(small, '/api/v1/campaigns').expect(200)).body.data.campaigns).toEqual([]);
    await get(t, '/api/v1/campaigns', { status: 'nope' }).expect(422);
  });

  it('when a split campaign is listed by its group, then its parts come in part order, and the dry run counted the opted-out phone', async () => {
    const list = phones(60);
    await request(stack.gatewayUrl)
      .post('/api/v1/opt-outs')
      .set(small.auth)
      .send({ phone: list[0] })
      .expect(201);
    const body = { recipients: list.map((phone) => ({ phone })), split_across_days: true };
    const plan = (await postCampaign(stack, small, body).query({ dry_run: true }).expect(200)).body.data as {
      parts: Array<{ requested_count: number }>;
    };
    expect(plan).toMatchObject({ split: true, requested_count: 60, opted_out_count: 1 });
    expect(plan.parts.map((p) => p.requested_count)).toEqual([50, 10]);

    const created = (await postCampaign(stack, small, body).expect(202)).body.data;
    const group = { campaign_group_id: created.campaign_group_id };
    const parts = await waitFor(
      async () => {
        const page = (await get(small, '/api/v1/campaigns', group).expect(200)).body.data
          .campaigns as CampaignDto[];
        return page[1]?.status === 'scheduled' ? page : undefined;
      },
      { what: 'the second part prepared', timeoutMs: 20_000 },
    );
    expect(parts.map((p) => p.part_number)).toEqual([1, 2]);
    expect(parts[0].total_count + parts[1].total_count).toBe(59);
  });
});

describe('GET /api/v1/opt-outs?phone=', () => {
  it('when searched by leading digits, then only the matching phones are listed', async () => {
    const [a, b] = phones(2);
    for (const phone of [a, b]) {
      await request(stack.gatewayUrl).post('/api/v1/opt-outs').set(t.auth).send({ phone }).expect(201);
    }
    const found = (await get(t, '/api/v1/opt-outs', { phone: `+${a.slice(0, 11)}` }).expect(200)).body
      .data as OptOutListDto;
    expect(found.opt_outs.map((o) => o.phone)).toEqual([a]);
  });
});

describe('GET /api/v1/stats', () => {
  it('when messages are sent and read, then the counters show them in the current hour and day, and rates follow', async () => {
    const tenant = await createTenant(stack);
    const empty = (await get(tenant, '/api/v1/stats').expect(200)).body.data;
    expect(empty.hourly).toHaveLength(24);
    expect(empty.daily).toHaveLength(30);
    expect(empty.totals_30d.sent).toBe(0);
    expect(empty.delivery_rate).toBeNull();

    for (let i = 0; i < 2; i += 1) {
      const id = await sendTemplate(stack, tenant);
      const wamid = (await waitForStatus(stack, tenant, id, ['sent'])).provider_message_id as string;
      await publishInbound(stack, 'inbound.status', statusReport(tenant, wamid, 'delivered'));
      await waitForStatus(stack, tenant, id, ['delivered']);
      await publishInbound(stack, 'inbound.status', statusReport(tenant, wamid, 'read'));
      await waitForStatus(stack, tenant, id, ['read']);
    }
    const stats = await waitFor(
      async () => {
        const s = (await get(tenant, '/api/v1/stats').expect(200)).body.data as MessageStatsDto;
        return s.totals_24h.read === 2 ? s : undefined;
      },
      { what: 'two reads counted', timeoutMs: 10_000 },
    );
    expect(stats.hourly[23].counts).toMatchObject({ queued: 2, sent: 2, delivered: 2, read: 2, failed: 0 });
    expect(stats.daily[29].counts).toMatchObject({ sent: 2, read: 2 });
    expect(stats).toMatchObject({ delivery_rate: 1, read_rate: 1, failures_by_error: [] });
    expect((await get(small, '/api/v1/stats').expect(200)).body.data.totals_24h.read).toBe(0);
  });
});

describe('POST /api/v1/channel-accounts/{id}/templates/sync', () => {
  it("when a tenant syncs its own number, then the templates come back; another tenant's number is not found", async () => {
    const sync = (tenant: TenantFixture, id: string) =>
      request(stack.gatewayUrl).post(`/api/v1/channel-accounts/${id}/templates/sync`).set(tenant.auth);
    const synced = (await sync(t, t.channelAccountId).expect(200)).body.data as {
      channel_account_id: string;
      templates: Array<{ name: string }>;
    };
    expect(synced.channel_account_id).toBe(t.channelAccountId);
    expect(synced.templates.map((x) => x.name)).toContain('order_update');
    expect((await sync(small, t.channelAccountId).expect(404)).body.error.code).toBe(
      'CHANNEL_ACCOUNT_NOT_FOUND',
    );
    await sync(t, 'not-an-id').expect(404);
  });
});
