import { waitFor } from '@bm/platform/testing';
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
});
