import { ulid } from 'ulidx';
import { waitFor } from '@bm/platform/testing';
import { freshPhone, useMessaging } from './factories/messaging';

/**
 * What the campaign service asks of messaging: its send commands, the number's capacity and holds, and what a
 * campaign's messages cost so far.
 */
describe('messaging alone: campaign sends and capacity', () => {
  const { m, t } = useMessaging();

  const command = (fields: Record<string, unknown> = {}) => ({
    tenant_id: t.tenantId,
    campaign_id: ulid(),
    campaign_recipient_id: String(Date.now()),
    campaign_recipient_attempt: 0,
    channel_account_id: t.channelAccountId,
    phone: freshPhone(),
    template_name: 'spring_sale',
    template_language: 'en_US',
    components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
    ...fields,
  });
  const statusOf = (campaignRecipientId: string) =>
    m.firstPublished('message.status_updated', 'campaign_recipient_id', campaignRecipientId);

  it('when the same send command arrives twice, then one message goes to the upstream and its status event names the recipient', async () => {
    const sent = command();
    await m.publish('messaging.send_requested', sent);
    await m.publish('messaging.send_requested', sent);
    expect(await statusOf(sent.campaign_recipient_id)).toMatchObject({
      status: 'sent',
      campaign_id: sent.campaign_id,
      campaign_recipient_attempt: 0,
      to_phone: sent.phone,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(m.upstream.sendsTo(sent.phone)).toHaveLength(1);
    expect(m.upstream.sendsTo(sent.phone)[0].body).toMatchObject({
      template: { name: 'spring_sale', components: sent.components },
    });
    const listed = await t.api.get(`/api/v1/messages?campaign_id=${sent.campaign_id}`).expect(200);
    expect(listed.body.data.messages).toEqual([
      expect.objectContaining({ status: 'sent', message_type: 'template' }),
    ]);
  });

  it('when the template of a command is unknown, then the message fails and the campaign still hears back', async () => {
    const refused = command({ template_name: 'no_such_template', components: [] });
    await m.publish('messaging.send_requested', refused);
    expect(await statusOf(refused.campaign_recipient_id)).toMatchObject({
      status: 'failed',
      campaign_id: refused.campaign_id,
    });
    expect(m.upstream.sendsTo(refused.phone)).toEqual([]);
  });

  it('when a batch command carries a bad item, then the others are sent once each and the bad one fails alone', async () => {
    const { tenant_id: tenantId, ...good } = command();
    const sends = [
      { ...good, campaign_recipient_id: `${good.campaign_recipient_id}-a` },
      { ...good, campaign_recipient_id: `${good.campaign_recipient_id}-b`, phone: 'not a phone' },
      { ...good, campaign_recipient_id: `${good.campaign_recipient_id}-c`, phone: freshPhone() },
      {
        ...good,
        campaign_recipient_id: `${good.campaign_recipient_id}-d`,
        phone: freshPhone(),
        template_name: 'no_such_template',
        components: [],
      },
    ];
    await m.publish('messaging.sends_requested', { tenant_id: tenantId, sends });
    for (const send of [sends[0], sends[2]]) {
      expect(await statusOf(send.campaign_recipient_id)).toMatchObject({
        status: 'sent',
        campaign_id: good.campaign_id,
        to_phone: send.phone,
      });
    }
    expect(await statusOf(sends[3].campaign_recipient_id)).toMatchObject({ status: 'failed' });
    // The batch is delivered again for its bad item: the sent ones are found, not sent twice.
    await new Promise((r) => setTimeout(r, 1500));
    expect(m.upstream.sendsTo(sends[0].phone)).toHaveLength(1);
    expect(m.upstream.sendsTo(sends[2].phone)).toHaveLength(1);
    expect(m.upstream.sendsTo(sends[3].phone)).toEqual([]);
  });

  it("when a campaign's messages are priced, then its cost so far is their sum, in the currency asked", async () => {
    const campaignId = ulid();
    const sends = [command({ campaign_id: campaignId }), command({ campaign_id: campaignId })];
    sends[1].campaign_recipient_id = `${sends[0].campaign_recipient_id}-2`;
    const cost = async (id: string, currency = 'USD') =>
      (await t.api.get(`/internal/v1/campaigns/${id}/cost?currency=${currency}`).expect(200)).body
        .data as Record<string, unknown>;
    for (const send of sends) await m.publish('messaging.send_requested', send);
    const events = await Promise.all(sends.map((send) => statusOf(send.campaign_recipient_id)));
    expect(await cost(campaignId)).toEqual({ campaign_id: campaignId, cost_amount: 0, cost_currency: 'USD' });

    // spring_sale is MARKETING and the phones +1 415…: the example card's market 1 price, 0.025 each.
    for (const event of events) {
      const message = await t.message(event.message_log_id as number);
      await t.report(message.provider_message_id as string, 'delivered', {
        pricing_category: 'marketing',
        pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' },
      });
    }
    await waitFor(async () => ((await cost(campaignId)).cost_amount === 0.05 ? true : undefined), {
      what: "the campaign's messages priced",
    });
    expect((await cost(campaignId, 'EUR')).cost_amount).toBe(0);
    expect((await cost(ulid())).cost_amount).toBe(0);
  });

  it("when capacity is held for a campaign, then the number's remaining capacity shrinks until the hold is released", async () => {
    const account = `/internal/v1/channel-accounts/${t.channelAccountId}`;
    const before = (await t.api.get(`${account}/capacity`).expect(200)).body.data as { remaining: number };
    expect(before).toMatchObject({ daily_limit: 1000 });
    /** Holds one more than the number has left for campaign c1, all or nothing unless `partial`. */
    const holdOneTooMany = async (partial: boolean): Promise<Record<string, unknown>> =>
      (
        await t.api
          .post(`${account}/capacity/reservations`, { reference: 'c1', count: before.remaining + 1, partial })
          .expect(200)
      ).body.data as Record<string, unknown>;
    expect((await holdOneTooMany(false)).granted).toBe(0);
    expect(await holdOneTooMany(true)).toMatchObject({
      granted: before.remaining,
      capacity: { remaining: 0 },
    });
    await t.api.del(`${account}/capacity/reservations/c1`).expect(200);
    expect((await t.api.get(`${account}/capacity`).expect(200)).body.data).toEqual(before);
  });

  it("when campaign sets messaging's copy of an opt-out, then a single MARKETING send to that phone is refused, UTILITY still goes, and an older version changes nothing", async () => {
    const phone = freshPhone();
    const marketing = { phone, data: { name: 'spring_sale', components: command().components } };
    await t.api.put(`/internal/v1/opt-outs/${phone}`, { opted_out: true, version: 2 }).expect(200);
    expect((await t.send(marketing).expect(422)).body.error.code).toBe('RECIPIENT_OPTED_OUT');
    await t.send({ phone }).expect(202);
    await t.api.put(`/internal/v1/opt-outs/${phone}`, { opted_out: false, version: 1 }).expect(200);
    await t.send(marketing).expect(422);
    await t.api.put(`/internal/v1/opt-outs/${phone}`, { opted_out: false, version: 3 }).expect(200);
    await t.send(marketing).expect(202);
  });
});
