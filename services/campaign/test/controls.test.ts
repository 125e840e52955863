import { waitFor } from '@bm/platform/testing';
import { csvObjects, parseCsv, textBody } from '../../../test/support/csv';
import { freshPhone, newTenant, useCampaign } from './factories/campaign';

describe('the campaign service alone: cancel, pause, resume, retry and opt-outs', () => {
  // Two recipients in flight at a time, so a campaign of five is still sending while the test holds answers.
  const c = useCampaign({ DISPATCH_BATCH_SIZE: '2', DISPATCH_MAX_IN_FLIGHT: '2' });
  afterEach(() => {
    c.worker.answerWith = () => 'sent';
  });

  const fivePhones = () => [freshPhone(), freshPhone(), freshPhone(), freshPhone(), freshPhone()];

  it('when a scheduled campaign is cancelled, then nothing is sent, and a second cancel is 409 with the status', async () => {
    const t = newTenant(c);
    const at = new Date(Date.now() + 2000).toISOString();
    const id = (await t.create(fivePhones(), { scheduled_at: at }).expect(202)).body.data
      .campaign_id as string;
    await t.campaignIn(id, ['scheduled']);
    expect((await t.post(`/api/v1/campaigns/${id}/cancel`).expect(200)).body.data.status).toBe('cancelled');
    const again = await t.post(`/api/v1/campaigns/${id}/cancel`).expect(409);
    expect(again.body.error).toMatchObject({
      code: 'CAMPAIGN_NOT_CANCELLABLE',
      details: { status: 'cancelled' },
    });
    await new Promise((r) => setTimeout(r, 2500));
    expect(c.commandsOf(id)).toEqual([]);
    expect((await t.campaign(id)).status).toBe('cancelled');
  });

  it('when a sending campaign is paused, then no more recipients are handed over until it is resumed, and then it finishes', async () => {
    const t = newTenant(c);
    c.worker.answerWith = () => null;
    const id = (await t.create(fivePhones()).expect(202)).body.data.campaign_id as string;
    await waitFor(() => c.commandsOf(id).length === 2, { what: 'first two handed over' });
    expect((await t.post(`/api/v1/campaigns/${id}/pause`).expect(200)).body.data.status).toBe('paused');
    for (const command of c.commandsOf(id)) await c.answer(command, 'sent');
    await waitFor(async () => (await t.campaign(id)).sent_count === 2, {
      what: 'answers applied while paused',
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(c.commandsOf(id)).toHaveLength(2);
    expect((await t.campaign(id)).status).toBe('paused');
    c.worker.answerWith = () => 'sent';
    await t.post(`/api/v1/campaigns/${id}/resume`).expect(200);
    expect(await t.campaignIn(id, ['completed'])).toMatchObject({ sent_count: 5, failed_count: 0 });
    expect(new Set(c.commandsOf(id).map((x) => x.campaign_recipient_id)).size).toBe(5);
    const resumeAgain = await t.post(`/api/v1/campaigns/${id}/resume`).expect(409);
    expect(resumeAgain.body.error.code).toBe('CAMPAIGN_NOT_RESUMABLE');
  });

  it('when a completed campaign is retried, then only its failed recipients are sent again, as new attempts', async () => {
    const t = newTenant(c);
    const phones = [freshPhone(), freshPhone(), freshPhone()];
    const failing = new Set([phones[1]]);
    c.worker.answerWith = (command) => (failing.has(command.phone ?? '') ? 'failed' : 'sent');
    const id = (await t.create([...phones, '12']).expect(202)).body.data.campaign_id as string;
    expect(await t.campaignIn(id, ['completed'])).toMatchObject({ sent_count: 2, failed_count: 2 });
    failing.clear();
    const retried = await t.post(`/api/v1/campaigns/${id}/retry`).expect(202);
    // The invalid phone is not retried: only the recipient messaging failed.
    expect(retried.body.data).toMatchObject({ retried_count: 1, status: 'pending' });
    expect(await t.campaignIn(id, ['completed'])).toMatchObject({ sent_count: 3, failed_count: 1 });
    const toRetried = c.commandsOf(id).filter((x) => x.phone === phones[1]);
    const recipientId = toRetried[0].campaign_recipient_id;
    expect(toRetried.map((x) => [x.campaign_recipient_id, x.campaign_recipient_attempt])).toEqual([
      [recipientId, 0],
      [recipientId, 1],
    ]);
    expect(c.commandsOf(id)).toHaveLength(4);
  });

  it('when recipients opted out, then the campaign skips them and messaging’s copy is told', async () => {
    const t = newTenant(c);
    const [viaApi, viaStop, other] = [freshPhone(), freshPhone(), freshPhone()];
    await t.post('/api/v1/opt-outs', { phone: viaApi }).expect(201);
    await c.customerWrote(t.tenantId, t.channelAccountId, viaStop, 'STOP');
    const listed = await waitFor(
      async () => {
        const res = await t.get('/api/v1/opt-outs').expect(200);
        const optOuts = res.body.data.opt_outs as Array<Record<string, unknown>>;
        return optOuts.length === 2 && optOuts;
      },
      { what: 'two opt-outs' },
    );
    expect(listed.map((o) => [o.phone, o.source]).sort()).toEqual(
      [
        [viaApi, 'api'],
        [viaStop, 'keyword'],
      ].sort(),
    );
    expect(c.messaging.optOutCopyOf(t.tenantId, viaStop)).toMatchObject({ opted_out: true });
    const id = (await t.create([viaApi, viaStop, other]).expect(202)).body.data.campaign_id as string;
    expect(await t.campaignIn(id, ['completed'])).toMatchObject({ total_count: 1, sent_count: 1 });
    expect(c.commandsOf(id).map((x) => x.phone)).toEqual([other]);
    await c.customerWrote(t.tenantId, t.channelAccountId, viaStop, 'START');
    await waitFor(() => c.messaging.optOutCopyOf(t.tenantId, viaStop)?.opted_out === false, {
      what: 'START synced',
    });
  });

  it('when a recipient opts out after the list was prepared, then the campaign fails that recipient instead of sending', async () => {
    const t = newTenant(c);
    const [leaving, staying] = [freshPhone(), freshPhone()];
    const at = new Date(Date.now() + 2500).toISOString();
    const id = (await t.create([leaving, staying], { scheduled_at: at }).expect(202)).body.data
      .campaign_id as string;
    expect(await t.campaignIn(id, ['scheduled'])).toMatchObject({ total_count: 2 });
    await t.post('/api/v1/opt-outs', { phone: leaving }).expect(201);
    expect(await t.campaignIn(id, ['completed'])).toMatchObject({ sent_count: 1, failed_count: 1 });
    expect(c.commandsOf(id).map((x) => x.phone)).toEqual([staying]);
    const recipient = (await t.recipients(id)).find((r) => r.phone === leaving);
    expect(recipient).toMatchObject({
      status: 'failed',
      error_message: expect.stringMatching(/^RECIPIENT_OPTED_OUT/),
    });
  });

  it('when a sending campaign is stopped, then recipients not handed over are never sent, those in flight finish, and it ends cancelled with campaign.completed', async () => {
    const t = newTenant(c);
    c.worker.answerWith = () => null;
    const id = (await t.create(fivePhones()).expect(202)).body.data.campaign_id as string;
    await waitFor(() => c.commandsOf(id).length === 2, { what: 'first two handed over' });
    expect((await newTenant(c).post(`/api/v1/campaigns/${id}/stop`)).status).toBe(404);

    const stopped = await t.post(`/api/v1/campaigns/${id}/stop`).expect(200);

    expect(stopped.body.data).toMatchObject({ status: 'cancelled', failed_count: 3 });
    for (const command of c.commandsOf(id)) await c.answer(command, 'sent');
    await waitFor(async () => (await t.campaign(id)).sent_count === 2, { what: 'in-flight answers applied' });
    await new Promise((r) => setTimeout(r, 300));
    expect(c.commandsOf(id)).toHaveLength(2);
    expect(await t.campaign(id)).toMatchObject({ status: 'cancelled', sent_count: 2, failed_count: 3 });
    const failed = (await t.recipients(id)).filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.error_message)).toEqual(
      Array(3).fill(expect.stringMatching(/^CAMPAIGN_STOPPED/)),
    );
    await waitFor(() => c.eventsOf(id).some((e) => e.routingKey === 'campaign.completed'), {
      what: 'campaign.completed',
    });
    expect(c.eventsOf(id).find((e) => e.routingKey === 'campaign.completed')?.payload).toMatchObject({
      status: 'cancelled',
      failed_count: 3,
    });
    const again = await t.post(`/api/v1/campaigns/${id}/stop`).expect(409);
    expect(again.body.error).toMatchObject({
      code: 'CAMPAIGN_NOT_STOPPABLE',
      details: { status: 'cancelled' },
    });
  });

  it('when a campaign that has not started is stopped, then 409 CAMPAIGN_NOT_STOPPABLE: the published cancel is its way', async () => {
    const t = newTenant(c);
    const at = new Date(Date.now() + 60_000).toISOString();
    const id = (await t.create([freshPhone()], { scheduled_at: at }).expect(202)).body.data
      .campaign_id as string;
    await t.campaignIn(id, ['scheduled']);
    const refused = await t.post(`/api/v1/campaigns/${id}/stop`).expect(409);
    expect(refused.body.error).toMatchObject({
      code: 'CAMPAIGN_NOT_STOPPABLE',
      details: { status: 'scheduled' },
    });
    await t.post(`/api/v1/campaigns/${id}/cancel`).expect(200);
  });

  it('when a campaign of more recipients than one export page is exported, then each comes once, escaped against formulas; another tenant gets 404', async () => {
    const t = newTenant(c);
    const phones = Array.from({ length: 1_050 }, () => freshPhone());
    const tricky = ['=HYPERLINK("http://x")', 'Doe, "Jr"\nline two', '+1 cell', '@sum', '-2'];
    const at = new Date(Date.now() + 60_000).toISOString();
    const recipients = [
      ...phones.map((phone, i) => ({ phone, name: tricky[i] ?? `Customer ${i}` })),
      { phone: '12', name: 'invalid' },
    ];
    const id = (await t.create([], { scheduled_at: at, recipients }).expect(202)).body.data
      .campaign_id as string;
    expect(await t.campaignIn(id, ['scheduled'])).toMatchObject({ total_count: 1_051 });

    const res = await t
      .get(`/api/v1/campaigns/${id}/recipients/export`)
      .buffer(true)
      .parse(textBody)
      .expect(200);

    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="campaign-.*\.csv"$/);
    const rows = csvObjects(res.body as string);
    expect(parseCsv(res.body as string)[0]).toEqual([
      'recipient_id',
      'phone',
      'user_id',
      'name',
      'status',
      'error',
      'message_log_id',
      'sent_at',
      'attempt',
    ]);
    expect(rows).toHaveLength(1_051);
    expect(new Set(rows.map((r) => r.recipient_id)).size).toBe(1_051);
    expect(new Set(rows.map((r) => r.phone))).toEqual(new Set([...phones, '12']));
    const byPhone = new Map(rows.map((r) => [r.phone, r]));
    expect(tricky.map((_, i) => byPhone.get(phones[i])?.name)).toEqual([
      `'=HYPERLINK("http://x")`,
      'Doe, "Jr"\nline two',
      "'+1 cell",
      "'@sum",
      "'-2",
    ]);
    expect(byPhone.get('12')).toMatchObject({ status: 'failed', error: 'invalid phone number' });
    await newTenant(c).get(`/api/v1/campaigns/${id}/recipients/export`).expect(404);
    await t.post(`/api/v1/campaigns/${id}/cancel`).expect(200);
  });
});
