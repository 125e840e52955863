import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { phones, postCampaign, readCampaign, waitForCampaign } from '../support/campaigns';
import { sandboxSends } from '../support/messages';
import { createTenant, startStack, type Stack } from '../support/stack';

// The rolling window is 4 s instead of 24 h and split parts are planned 1.5 s apart instead of a day, so
// capacity running out and freeing again happens within a test.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    messagingEnv: { CAPACITY_WINDOW_MS: '4000' },
    // Small batches, so that a pause holds back most of a list.
    campaignEnv: {
      SPLIT_PART_INTERVAL_MS: '1500',
      THROTTLE_RECHECK_MS: '200',
      DISPATCH_BATCH_SIZE: '5',
      DISPATCH_MAX_IN_FLIGHT: '10',
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const recipientsOf = (list: string[]) => list.map((phone) => ({ phone }));

describe('tier capacity', () => {
  it('answers 429 MESSAGING_TIER_LIMIT_EXCEEDED with the details when the list does not fit', async () => {
    const t = await createTenant(stack, 'TIER_50');
    const res = await postCampaign(stack, t, { recipients: recipientsOf(phones(60)) }).expect(429);
    expect(res.body).toEqual({
      success: false,
      error: {
        code: 'MESSAGING_TIER_LIMIT_EXCEEDED',
        message: expect.any(String),
        details: { daily_limit: 50, used_today: 0, remaining: 50, requested: 60 },
      },
    });
  });

  it('lets only one of two concurrent campaigns take capacity that fits one', async () => {
    const t = await createTenant(stack, 'TIER_50');
    const body = () => ({ recipients: recipientsOf(phones(30)), scheduled_at: '2099-01-01T00:00:00Z' });
    const answers = await Promise.all([postCampaign(stack, t, body()), postCampaign(stack, t, body())]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error.details).toMatchObject({ daily_limit: 50, remaining: 20, requested: 30 });
  });

  it('splits across days: parts named and planned a day apart, replayable as a group, throttled until capacity frees', async () => {
    const t = await createTenant(stack, 'TIER_50');
    const list = phones(120);
    const body = { recipients: recipientsOf(list), campaign_name: 'Promo', split_across_days: true };
    const key = { 'Idempotency-Key': `split-${Date.now()}` };
    const before = Date.now();
    const res = await postCampaign(stack, t, body, key).expect(202);
    const data = res.body.data as Record<string, unknown> & { parts: Array<Record<string, unknown>> };
    expect(data).toMatchObject({
      name: 'Promo (1/3)',
      status: 'preparing',
      requested_count: 50,
      total_count: 0,
      scheduled_at: null,
      campaign_group_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      parts_total: 3,
    });
    expect(data.parts.map((p) => [p.name, p.part_number, p.requested_count, p.status])).toEqual([
      ['Promo (1/3)', 1, 50, 'preparing'],
      ['Promo (2/3)', 2, 50, 'preparing'],
      ['Promo (3/3)', 3, 20, 'preparing'],
    ]);
    expect(data.parts[0]).toMatchObject({ campaign_id: data.campaign_id, scheduled_at: null });
    const planned = data.parts.slice(1).map((p) => new Date(p.scheduled_at as string).getTime() - before);
    expect(planned[0]).toBeGreaterThanOrEqual(1500);
    expect(planned[1] - planned[0]).toBeGreaterThanOrEqual(1490);

    const replay = await postCampaign(stack, t, body, key).expect(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(res.body);
    const conflict = await postCampaign(stack, t, { ...body, campaign_name: 'Other' }, key).expect(409);
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');
    const { campaigns: group } = await stack.campaign!.deps.campaigns.pageForTenant(t.tenantId, {
      page: 1,
      per_page: 10,
      campaign_group_id: data.campaign_group_id as string,
    });
    expect(group.map((c) => c.idempotencyKey)).toEqual(
      ['-p1', '-p2', '-p3'].map((s) => `${key['Idempotency-Key']}${s}`),
    );

    const [first, second, third] = data.parts.map((p) => p.campaign_id as string);
    expect(await waitForCampaign(stack, t, first, ['completed'])).toMatchObject({
      total_count: 50,
      sent_count: 50,
    });
    const part2 = await waitForCampaign(stack, t, second, ['throttled'], 10_000);
    expect(part2).toMatchObject({
      name: 'Promo (2/3)',
      part_number: 2,
      parts_total: 3,
      campaign_group_id: data.campaign_group_id,
    });
    // The window frees 4 s after part 1's sends: part 2 resumes by itself, then part 3 after it.
    expect(await waitForCampaign(stack, t, second, ['completed'], 20_000)).toMatchObject({ sent_count: 50 });
    expect(await waitForCampaign(stack, t, third, ['completed'], 20_000)).toMatchObject({ sent_count: 20 });
    for (const phone of list) expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(1);
  }, 60_000);

  it('cancels a later part waiting as scheduled, and not a part that has started', async () => {
    const t = await createTenant(stack, 'TIER_50');
    const res = await postCampaign(stack, t, {
      recipients: recipientsOf(phones(70)),
      split_across_days: true,
      scheduled_at: new Date(Date.now() + 60_000).toISOString(),
    }).expect(202);
    const [first, second] = (res.body.data.parts as Array<{ campaign_id: string }>).map((p) => p.campaign_id);
    await waitForCampaign(stack, t, second, ['scheduled']);
    await request(stack.gatewayUrl).post(`/api/v1/campaigns/${second}/cancel`).set(t.auth).expect(200);
    expect((await readCampaign(stack, t, second)).status).toBe('cancelled');
    await request(stack.gatewayUrl).post(`/api/v1/campaigns/${first}/cancel`).set(t.auth).expect(200);

    const now = await postCampaign(stack, t, { recipients: recipientsOf(phones(3)) }).expect(202);
    const id = now.body.data.campaign_id as string;
    await waitForCampaign(stack, t, id, ['processing', 'completed']);
    const refused = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${id}/cancel`)
      .set(t.auth)
      .expect(409);
    expect(refused.body.error.code).toBe('CAMPAIGN_NOT_CANCELLABLE');
  });

  it('when the first part of a scheduled split is cancelled, then the later part keeps waiting and can be cancelled too', async () => {
    const t = await createTenant(stack, 'TIER_50');
    const later = phones(70);
    const res = await postCampaign(stack, t, {
      recipients: recipientsOf(later),
      split_across_days: true,
      scheduled_at: new Date(Date.now() + 60_000).toISOString(),
    }).expect(202);
    const [first, second] = (res.body.data.parts as Array<{ campaign_id: string }>).map((p) => p.campaign_id);
    await waitForCampaign(stack, t, second, ['scheduled']);
    await request(stack.gatewayUrl).post(`/api/v1/campaigns/${first}/cancel`).set(t.auth).expect(200);

    // A campaign created after the cancel is dispatched after the parts, so once it completes the dispatcher
    // has had its chance to pull the second part forward.
    const now = await postCampaign(stack, t, { recipients: recipientsOf(phones(1)) }).expect(202);
    await waitForCampaign(stack, t, now.body.data.campaign_id as string, ['completed']);
    expect((await readCampaign(stack, t, second)).status).toBe('scheduled');
    const cancelled = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${second}/cancel`)
      .set(t.auth)
      .expect(200);
    expect(cancelled.body.data).toMatchObject({ success: true });
    for (const phone of later) expect(await sandboxSends(stack, `to=${phone}`)).toHaveLength(0);
  });

  it('pauses and resumes a sending campaign', async () => {
    const t = await createTenant(stack, 'TIER_10K', { throughput_per_second: 10 });
    const list = phones(60);
    const res = await postCampaign(stack, t, { recipients: recipientsOf(list) }).expect(202);
    const id = res.body.data.campaign_id as string;
    await waitForCampaign(stack, t, id, ['processing']);
    const paused = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${id}/pause`)
      .set(t.auth)
      .expect(200);
    expect(paused.body.data.status).toBe('paused');
    // What was handed to messaging before the pause still goes; nothing more is handed over while paused.
    const settled = await waitFor(
      async () => {
        const a = (await readCampaign(stack, t, id)).sent_count as number;
        await new Promise((r) => setTimeout(r, 1500));
        const b = (await readCampaign(stack, t, id)).sent_count as number;
        return a === b ? b : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect((await readCampaign(stack, t, id)).status).toBe('paused');
    const refused = await request(stack.gatewayUrl)
      .post(`/api/v1/campaigns/${id}/pause`)
      .set(t.auth)
      .expect(409);
    expect(refused.body.error).toMatchObject({
      code: 'CAMPAIGN_NOT_PAUSABLE',
      details: { status: 'paused' },
    });
    await request(stack.gatewayUrl).post(`/api/v1/campaigns/${id}/resume`).set(t.auth).expect(200);
    expect(await waitForCampaign(stack, t, id, ['completed'], 20_000)).toMatchObject({ sent_count: 60 });
    expect(settled).toBeLessThan(40);
  }, 60_000);
});
