import request from 'supertest';
import type { CampaignDto, MessageStatsDto, OptOutListDto } from '@bm/contracts';
import { waitFor } from '@bm/platform/testing';
import { phones, postCampaign, waitForCampaign } from '../support/campaigns';
import { publishInbound, statusReport } from '../support/events';
import { sendTemplate, waitForStatus } from '../support/messages';
import { createTenant, startStack, type Stack, type TenantFixture } from '../support/stack';
import { foldStatsShards } from '../../services/messaging/src/domain/messages/fold-stats-shards.use-case';
import { messageStats } from '../../services/messaging/src/domain/messages/message-stats.use-case';

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
    // The day's figures came from the hourly counters: the trigger writes no daily row.
    expect(
      await query('SELECT * FROM messaging.message_stats_daily WHERE tenant_id = $1', [tenant.tenantId]),
    ).toEqual([]);
  });

  it("when counts fall in hours either side of a UTC midnight, then each day's figures are the sum of its hours'", async () => {
    const tenant = await createTenant(stack);
    await addCounts(tenant, AROUND_MIDNIGHT);

    const stats = await messageStats(
      stack.messaging[0].deps,
      tenant.tenantId,
      new Date('2026-03-02T05:30:00Z'),
    );
    const hour = (start: string) => stats.hourly.find((b) => b.start === start)!.counts;
    expect(hour('2026-03-01T22:00:00.000Z')).toMatchObject({ sent: 7, failed: 1, read: 0 });
    expect(hour('2026-03-01T23:00:00.000Z')).toMatchObject({ sent: 5, failed: 0, read: 2 });
    expect(hour('2026-03-02T00:00:00.000Z')).toMatchObject({ sent: 6, failed: 0, read: 8 });
    // Every day, status by status, is the sum of the hours that start in it.
    for (const day of stats.daily) {
      const sum = Object.fromEntries(Object.keys(day.counts).map((s) => [s, 0])) as typeof day.counts;
      for (const h of stats.hourly.filter((b) => b.start.slice(0, 10) === day.start.slice(0, 10))) {
        for (const s of Object.keys(sum) as Array<keyof typeof sum>) sum[s] += h.counts[s];
      }
      expect(day.counts).toEqual(sum);
    }
    expect(stats.daily[28]).toMatchObject({
      start: '2026-03-01T00:00:00.000Z',
      counts: { sent: 12, read: 2, failed: 1 },
    });
    expect(stats.daily[29]).toMatchObject({
      start: '2026-03-02T00:00:00.000Z',
      counts: { sent: 6, read: 8, failed: 0 },
    });
    expect(stats.totals_30d).toEqual(stats.totals_24h);
  });

  it('when the shards of finished hours are folded, then each keeps one row per status, the last two hours keep theirs, and the figures stay', async () => {
    const tenant = await createTenant(stack);
    // The current hour and the one before, which may still get counts from transactions that began in them.
    const [{ live, lastHour }] = await query<{ live: string; lastHour: string }>(
      `SELECT to_char(h, 'YYYY-MM-DD HH24:MI') AS live, to_char(h - interval '1 hour', 'YYYY-MM-DD HH24:MI') AS "lastHour"
         FROM date_trunc('hour', now() AT TIME ZONE 'UTC') h`,
    );
    await addCounts(tenant, [
      ...AROUND_MIDNIGHT,
      [lastHour, 'sent', 1001, 1],
      [lastHour, 'sent', 1002, 1],
      [live, 'sent', 1001, 2],
      [live, 'sent', 1002, 3],
    ]);
    const figures = async (at?: Date) => {
      const { hourly, daily } = await messageStats(stack.messaging[0].deps, tenant.tenantId, at);
      return { hourly, daily };
    };
    const before = [await figures(new Date('2026-03-02T05:30:00Z')), await figures()];

    await foldStatsShards(stack.messaging[0].deps);
    expect(await rows(tenant)).toEqual([
      { hour: '2026-03-01 22:00', status: 'failed', shard: 0, count: '1' },
      { hour: '2026-03-01 22:00', status: 'sent', shard: 0, count: '7' },
      { hour: '2026-03-01 23:00', status: 'read', shard: 0, count: '2' },
      { hour: '2026-03-01 23:00', status: 'sent', shard: 0, count: '5' },
      { hour: '2026-03-02 00:00', status: 'read', shard: 0, count: '8' },
      { hour: '2026-03-02 00:00', status: 'sent', shard: 0, count: '6' },
      ...[lastHour, live].flatMap((hour, i) => [
        { hour, status: 'sent', shard: 1001, count: String(1 + i) },
        { hour, status: 'sent', shard: 1002, count: String(1 + 2 * i) },
      ]),
    ]);
    expect([await figures(new Date('2026-03-02T05:30:00Z')), await figures()]).toEqual(before);

    // A count that comes after its hour was folded (a transaction that began in it) is a shard again, folded in turn.
    await addCounts(tenant, [['2026-03-01 22:00', 'sent', 1004, 2]]);
    await foldStatsShards(stack.messaging[0].deps);
    expect((await rows(tenant))[1]).toEqual({
      hour: '2026-03-01 22:00',
      status: 'sent',
      shard: 0,
      count: '9',
    });
  });
});

/** Reads or writes messaging's tables on the service's own connection pool. */
const query = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
  stack.messaging[0].deps.dataSource.query(sql, params);

/** Counts of three UTC hours, two before a midnight and one after, on several shards: [hour, status, shard, count]. */
const AROUND_MIDNIGHT: Array<[string, string, number, number]> = [
  ['2026-03-01 22:00', 'sent', 1001, 3],
  ['2026-03-01 22:00', 'sent', 1002, 4],
  ['2026-03-01 22:00', 'failed', 1001, 1],
  ['2026-03-01 23:00', 'sent', 1001, 5],
  ['2026-03-01 23:00', 'read', 1003, 2],
  ['2026-03-02 00:00', 'sent', 1002, 6],
  ['2026-03-02 00:00', 'read', 1001, 7],
  ['2026-03-02 00:00', 'read', 1002, 1],
];

/** Hourly counter rows of a tenant: [UTC hour 'YYYY-MM-DD HH:MI', status, shard, count]. */
const addCounts = (tenant: TenantFixture, counts: Array<[string, string, number, number]>) =>
  query(
    `INSERT INTO messaging.message_stats_hourly (tenant_id, hour, status, shard, count)
     SELECT $1, hour::timestamp, status, shard, count
       FROM unnest($2::text[], $3::text[], $4::int[], $5::bigint[]) AS c(hour, status, shard, count)`,
    [tenant.tenantId, ...[0, 1, 2, 3].map((i) => counts.map((c) => c[i]))],
  );

const rows = (tenant: TenantFixture) =>
  query(
    `SELECT to_char(hour, 'YYYY-MM-DD HH24:MI') AS hour, status, shard, count FROM messaging.message_stats_hourly
      WHERE tenant_id = $1 ORDER BY 1, 2, 3`,
    [tenant.tenantId],
  );

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
