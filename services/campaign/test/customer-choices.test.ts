import { waitFor } from '@bm/platform/testing';
import { freshPhone, newTenant, useCampaign, type TenantContext } from './factories/campaign';

/**
 * CONTRACT.md, holds, errors and their rules: a customer's stop of marketing (a STOP keyword, the upstream's
 * `user_preferences` stop) puts them on the opt-out list, and their resume (START, `resume`) takes them off. A stop
 * reaches the campaign service by two roads (webhook-ingress applies it before its answer, and the same stop comes
 * again through messaging), and consumers run concurrently: only the customer's latest choice counts, whatever
 * order the copies arrive in (ordered by the upstream's time of the choice, then by when we received it).
 */
describe('a customer’s latest choice', () => {
  const c = useCampaign();
  const second = Math.floor(Date.now() / 1000) * 1000;
  /** One upstream second, received `ms` into it. */
  const at = (ms: number, chosen = second) => ({
    chosen_at: new Date(chosen).toISOString(),
    received_at: new Date(chosen + ms).toISOString(),
  });

  const listed = async (t: TenantContext, phone: string) => {
    const res = await t.get(`/api/v1/opt-outs?phone=${phone}`).expect(200);
    return (res.body.data.opt_outs as Array<{ phone: string; source: string }>).find(
      (o) => o.phone === phone,
    );
  };
  /** Ingress's road: the stop applied before the upstream's webhook is answered. */
  const stopNow = (t: TenantContext, address: string, time: { chosen_at: string; received_at: string }) =>
    t.post('/internal/v1/customer-stops', { address, source: 'marketing_stop', ...time }).expect(200);

  it('when a stop’s copy arrives after the customer resumed in the same second, then the resume stands', async () => {
    const t = newTenant(c);
    const [phone, other] = [freshPhone(), freshPhone()];
    await stopNow(t, phone, at(100));
    expect(await listed(t, phone)).toMatchObject({ source: 'marketing_stop' });
    expect(c.messaging.optOutCopyOf(t.tenantId, phone)).toMatchObject({ opted_out: true });

    await c.customerChose(t.tenantId, t.channelAccountId, phone, 'resume', at(600));
    await waitFor(async () => (await listed(t, phone)) === undefined || undefined, { what: 'the resume' });
    await waitFor(() => c.messaging.optOutCopyOf(t.tenantId, phone)?.opted_out === false || undefined, {
      what: "messaging's copy lifted",
    });

    // The stop again by ingress's road (the upstream retried its webhook): no later than itself, it changes nothing.
    await stopNow(t, phone, at(100));
    expect(await listed(t, phone)).toBeUndefined();
    // And by messaging's road, late: a fresh stop of another customer published after it shows the consumer has
    // gone past it.
    await c.customerChose(t.tenantId, t.channelAccountId, phone, 'stop', at(100));
    await c.customerChose(t.tenantId, t.channelAccountId, other, 'stop', at(700));
    await waitFor(() => listed(t, other), { what: "the other customer's stop" });
    await new Promise((r) => setTimeout(r, 500));
    expect(await listed(t, phone)).toBeUndefined();
    expect(c.messaging.optOutCopyOf(t.tenantId, phone)).toMatchObject({ opted_out: false });
  });

  it('when the customer stops again after resuming, then the new stop applies by either road', async () => {
    const t = newTenant(c);
    const [byBroker, byIngress] = [freshPhone(), freshPhone()];
    for (const phone of [byBroker, byIngress]) {
      await stopNow(t, phone, at(100, second - 5000));
      await c.customerChose(t.tenantId, t.channelAccountId, phone, 'resume', at(100, second - 3000));
      await waitFor(async () => (await listed(t, phone)) === undefined || undefined, { what: 'the resume' });
    }
    await c.customerChose(t.tenantId, t.channelAccountId, byBroker, 'stop', at(100));
    await stopNow(t, byIngress, at(100));
    expect(await listed(t, byIngress)).toMatchObject({ source: 'marketing_stop' });
    expect(await waitFor(() => listed(t, byBroker), { what: 'the stop by the broker' })).toMatchObject({
      source: 'marketing_stop',
    });
  });

  it('when a typed STOP’s copy arrives after the customer’s START, then the START stands', async () => {
    const t = newTenant(c);
    const phone = freshPhone();
    const wrote = (text: string, time: { chosen_at: string; received_at: string }) =>
      c.publish('message.received', {
        ...{ tenant_id: t.tenantId, channel_account_id: t.channelAccountId, from: phone, name: null },
        ...{ message_id: `wamid.in.${text}.${time.received_at}`, type: 'text', text, media: null },
        ...{ written_at: time.chosen_at, received_at: time.received_at },
      });
    await t
      .post('/internal/v1/customer-stops', { address: phone, source: 'keyword', ...at(100) })
      .expect(200);
    expect(await listed(t, phone)).toMatchObject({ source: 'keyword' });
    await wrote('START', at(300));
    await waitFor(async () => (await listed(t, phone)) === undefined || undefined, { what: 'the START' });
    await wrote('STOP', at(100));
    await wrote('STOP', at(200, second - 1000));
    await new Promise((r) => setTimeout(r, 500));
    expect(await listed(t, phone)).toBeUndefined();
    // A STOP written after the START stops them again.
    await wrote('STOP', at(100, second + 1000));
    expect(await waitFor(() => listed(t, phone), { what: 'the later STOP' })).toMatchObject({
      source: 'keyword',
    });
  });
});
