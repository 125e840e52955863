import { waitFor } from '@bm/platform/testing';
import { freshPhone, newTenant, useCampaign } from './factories/campaign';

/*
 * CONTRACT.md, per-message pricing: a campaign's dry run and its GET give `estimated_cost` and, once sending, the
 * cost of its messages so far, in `cost_currency`. The rate card is the shipped example (PRICING_RATE_CARD unset),
 * the template spring_sale is MARKETING.
 */
describe('the campaign service alone: estimated cost and cost so far', () => {
  const c = useCampaign();

  /** One recipient in each kind of market, and the rows a campaign leaves out. */
  function mixedList(optedOut: string) {
    const us = freshPhone();
    return [
      { phone: `+${us}` }, // market 1: 0.025
      { phone: '+44 7700 900123' }, // market 44: 0.0529
      { phone: '919876543210' }, // market 91: 0.0107
      { phone: '33612345678' }, // no market of its own, the default: 0.0425
      { user_id: 'US.13491208655302741918' }, // by user id: the card names no US, the default: 0.0425
      { phone: `${us.slice(0, 1)} (${us.slice(1, 4)}) ${us.slice(4)}` }, // the US phone again: dropped
      { phone: 'not a phone' }, // invalid: never sent
      { phone: optedOut }, // opted out: skipped
    ];
  }

  it('when a list of several markets is planned and then created, then the dry run and the campaign give the same estimate of its deliverable recipients', async () => {
    const t = newTenant(c);
    const optedOut = freshPhone();
    await t.post('/api/v1/opt-outs', { phone: optedOut }).expect(201);
    const recipients = mixedList(optedOut);

    const plan = await t.create([], { recipients }, '?dry_run=true').expect(200);
    expect(plan.body.data).toMatchObject({
      requested_count: 8,
      opted_out_count: 1,
      estimated_cost: 0.1736,
      cost_currency: 'USD',
    });

    const created = await t.create([], { recipients }).expect(202);
    const id = created.body.data.campaign_id as string;
    const prepared = await waitFor(
      async () => {
        const campaign = await t.campaign(id);
        return campaign.status === 'preparing' ? undefined : campaign;
      },
      { what: 'campaign prepared' },
    );
    expect(prepared).toMatchObject({ estimated_cost: 0.1736, cost_currency: 'USD' });
  });

  it('when a campaign is sending and messaging prices its messages, then its GET gives their cost so far, and the last known one while messaging fails', async () => {
    const t = newTenant(c);
    const created = await t.create([freshPhone(), freshPhone()], {}, '?dry_run=true').expect(200);
    expect(created.body.data).toMatchObject({ estimated_cost: 0.05, cost_currency: 'USD' });
    const id = (await t.create([freshPhone(), freshPhone()]).expect(202)).body.data.campaign_id as string;
    const done = await t.campaignIn(id, ['completed']);
    expect(done).toMatchObject({ estimated_cost: 0.05, cost_amount: 0, cost_currency: 'USD' });

    c.messaging.setCampaignCost(t.tenantId, id, 0.025);
    expect(await t.campaign(id)).toMatchObject({ cost_amount: 0.025 });
    c.messaging.setCampaignCost(t.tenantId, id, 0.05);
    expect(await t.campaign(id)).toMatchObject({ cost_amount: 0.05 });

    c.messaging.failCampaignCosts(true);
    try {
      expect(await t.campaign(id)).toMatchObject({ cost_amount: 0.05, estimated_cost: 0.05 });
    } finally {
      c.messaging.failCampaignCosts(false);
    }
    // The list does not ask messaging: it gives the figure last known.
    const list = (await t.get('/api/v1/campaigns').expect(200)).body.data.campaigns as Array<
      Record<string, unknown>
    >;
    expect(list.find((x) => x.campaign_id === id)).toMatchObject({ cost_amount: 0.05, estimated_cost: 0.05 });
  });

  it('when a campaign has not started sending, then its cost so far is 0 without asking messaging', async () => {
    const t = newTenant(c);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const id = (await t.create([freshPhone()], { scheduled_at: at }).expect(202)).body.data
      .campaign_id as string;
    const scheduled = await t.campaignIn(id, ['scheduled']);
    c.messaging.setCampaignCost(t.tenantId, id, 9.99);
    expect(scheduled).toMatchObject({ estimated_cost: 0.025, cost_amount: 0 });
    expect(await t.campaign(id)).toMatchObject({ cost_amount: 0 });
  });
});

describe('the campaign service alone: the cost so far, asked of messaging once per interval', () => {
  const c = useCampaign({ COST_REFRESH_MS: '60000' });

  it('when a campaign is read again within COST_REFRESH_MS, then the cost messaging gave last is answered without asking again', async () => {
    const t = newTenant(c);
    const id = (await t.create([freshPhone()]).expect(202)).body.data.campaign_id as string;
    c.messaging.setCampaignCost(t.tenantId, id, 0.025);
    await t.campaignIn(id, ['completed']);
    expect(await t.campaign(id)).toMatchObject({ cost_amount: 0.025 });
    c.messaging.setCampaignCost(t.tenantId, id, 0.05);
    expect(await t.campaign(id)).toMatchObject({ cost_amount: 0.025 });
  });
});
