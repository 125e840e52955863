import { waitFor } from '@bm/platform/testing';
import { freshPhone, newTenant, useCampaign } from './factories/campaign';

describe('the campaign service alone: create, prepare, dispatch and follow the messages', () => {
  const c = useCampaign();

  it('when a campaign is created, then it is prepared, each recipient is handed to messaging once, and it completes as the statuses come back', async () => {
    const t = newTenant(c);
    const phones = [freshPhone(), freshPhone(), freshPhone()];
    const created = await t
      .create([...phones, phones[0], 'not a phone'], { campaign_name: 'Spring' })
      .expect(202);
    expect(created.body.data).toMatchObject({ status: 'preparing', requested_count: 5, name: 'Spring' });
    const id = created.body.data.campaign_id as string;
    const done = await t.campaignIn(id, ['completed']);
    // The duplicate is dropped; the invalid phone fails without reaching messaging.
    expect(done).toMatchObject({ total_count: 4, sent_count: 3, failed_count: 1 });
    const commands = c.commandsOf(id);
    expect(commands.map((x) => x.phone).sort()).toEqual([...phones].sort());
    expect(commands[0]).toMatchObject({
      tenant_id: t.tenantId,
      channel_account_id: t.channelAccountId,
      template_name: 'spring_sale',
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'friend' }] }],
    });
    const recipients = await t.recipients(id);
    expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(3);
    expect(recipients.find((r) => r.status === 'failed')).toMatchObject({
      error_message: 'invalid phone number',
    });
    await waitFor(() => c.eventsOf(id).length >= 3, { what: 'campaign events' });
    expect(c.eventsOf(id).map((e) => e.routingKey)).toEqual([
      'campaign.created',
      'campaign.started',
      'campaign.completed',
    ]);
    expect(c.eventsOf(id)[2].payload).toMatchObject({ status: 'completed', sent_count: 3, failed_count: 1 });
    // Its hold on the number's capacity is given back.
    expect(c.messaging.holdOf(t.channelAccountId, id)).toBeUndefined();
  });

  it('when messaging reports a recipient failed, then the recipient fails with the error and a later status changes nothing', async () => {
    const t = newTenant(c);
    const [good, bad] = [freshPhone(), freshPhone()];
    c.worker.answerWith = (command) => (command.phone === bad ? 'failed' : 'sent');
    const id = (await t.create([good, bad]).expect(202)).body.data.campaign_id as string;
    expect(await t.campaignIn(id, ['completed'])).toMatchObject({ sent_count: 1, failed_count: 1 });
    const [failedCommand] = c.commandsOf(id).filter((x) => x.phone === bad);
    await c.answer(failedCommand, 'sent');
    await c.answer(failedCommand, 'failed');
    await new Promise((r) => setTimeout(r, 500));
    const recipient = (await t.recipients(id)).find((r) => r.phone === bad);
    expect(recipient).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/131026/) });
    expect(await t.campaign(id)).toMatchObject({ sent_count: 1, failed_count: 1 });
    c.worker.answerWith = () => 'sent';
  });

  it('when a campaign is planned with ?dry_run=true, then the plan comes back with the opted-out count and nothing is created', async () => {
    const t = newTenant(c, 10);
    const [optedOut, other] = [freshPhone(), freshPhone()];
    await t.post('/api/v1/opt-outs', { phone: optedOut }).expect(201);
    const plan = await t.create([optedOut, other], {}, '?dry_run=true').expect(200);
    expect(plan.body.data).toMatchObject({
      dry_run: true,
      requested_count: 2,
      split: false,
      capacity: { daily_limit: 10, remaining: 10 },
      opted_out_count: 1,
      parts: [{ part_number: 1, requested_count: 2, planned_at: null }],
    });
    expect((await t.get('/api/v1/campaigns').expect(200)).body.data.campaigns).toEqual([]);
  });

  it('when a list is larger than the number can send today, then it is refused, or with split_across_days sent in daily parts', async () => {
    const t = newTenant(c, 2);
    const phones = [freshPhone(), freshPhone(), freshPhone(), freshPhone(), freshPhone()];
    const refused = await t.create(phones).expect(429);
    expect(refused.body.error).toMatchObject({
      code: 'MESSAGING_TIER_LIMIT_EXCEEDED',
      details: { daily_limit: 2, remaining: 2, requested: 5 },
    });
    const created = await t.create(phones, { split_across_days: true }).expect(202);
    const { parts, campaign_group_id: groupId } = created.body.data as {
      parts: Array<{ campaign_id: string; requested_count: number; scheduled_at: string | null }>;
      campaign_group_id: string;
    };
    expect(parts.map((p) => p.requested_count)).toEqual([2, 2, 1]);
    const day = c.config.SPLIT_PART_INTERVAL_MS;
    expect(new Date(parts[2].scheduled_at!).getTime() - new Date(parts[1].scheduled_at!).getTime()).toBe(day);
    await t.campaignIn(parts[0].campaign_id, ['completed']);
    // The later parts wait for their day: the number's capacity is used up.
    await new Promise((r) => setTimeout(r, 500));
    const group = await t.get(`/api/v1/campaigns?campaign_group_id=${groupId}`).expect(200);
    const listed = group.body.data.campaigns as Array<Record<string, unknown>>;
    expect(listed.map((p) => [p.part_number, p.status])).toEqual([
      [1, 'completed'],
      [2, 'scheduled'],
      [3, 'scheduled'],
    ]);
    expect(c.commandsOf(parts[1].campaign_id)).toEqual([]);
  });

  it('when the template is unknown or the number is not the tenant’s, then messaging’s refusal is the answer and nothing is created', async () => {
    const t = newTenant(c);
    const other = newTenant(c);
    const unknown = await t.create([freshPhone()], { template_name: 'no_such_template' }).expect(422);
    expect(unknown.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    const foreign = await t
      .create([freshPhone()], { channel_account_id: other.channelAccountId })
      .expect(422);
    expect(foreign.body.error.code).toBe('NO_ACTIVE_ACCOUNT');
    expect((await t.get('/api/v1/campaigns').expect(200)).body.data.campaigns).toEqual([]);
  });
});
