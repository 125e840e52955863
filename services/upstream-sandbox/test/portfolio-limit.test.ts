import { waitFor } from '@bm/platform/testing';
import { uniqueRecipient, useSandbox } from './support/sandbox';
import { statusesFor } from './support/webhook-receiver';
import { send2026, template, valuesOf } from './support/wire-2026';

const HELLO = template({ name: 'hello_world' });

describe('the business portfolio and its daily limit', () => {
  // `sent` only, so 250 sends stay quick; a failure comes alone at the same offset.
  const sbx = useSandbox({ SANDBOX_STATUS_DELAYS_MS: '20', SANDBOX_DEFAULT_MPS: '0' });

  it('when a portfolio limit is set, then a business_capability_update reaches each of its WABAs and its numbers report the tier', async () => {
    const a = await sbx.registerNumber({ waba_id: 'waba-cap-a', business_id: 'biz-cap' });
    await sbx.registerNumber({ waba_id: 'waba-cap-b', business_id: 'biz-cap' });

    const res = await sbx.http.put('/_sandbox/businesses/biz-cap', {
      max_daily_conversations_per_business: 'TIER_2K',
    });
    const number = await sbx.http.get(`/v24.0/${a}`);

    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      business_id: 'biz-cap',
      max_daily_conversations_per_business: 'TIER_2K',
      reached_24h: 0,
      delivered: true,
    });
    const updates = sbx.receiver.received
      .filter((r) => r.json.entry[0].changes[0].field === 'business_capability_update')
      .map((r) => [r.json.entry[0].id, r.json.entry[0].changes[0].value]);
    expect(updates).toEqual([
      ['waba-cap-a', { max_daily_conversations_per_business: 'TIER_2K' }],
      ['waba-cap-b', { max_daily_conversations_per_business: 'TIER_2K' }],
    ]);
    expect(number.data.messaging_limit_tier).toBe('TIER_2K');
  });

  it('when two numbers of one portfolio together reach 250 customers, then the next new customer fails on either number', async () => {
    const a = await sbx.registerNumber({ waba_id: 'waba-lim-a', business_id: 'biz-lim' });
    const b = await sbx.registerNumber({ waba_id: 'waba-lim-b', business_id: 'biz-lim' });
    const other = await sbx.registerNumber({ waba_id: 'waba-lim-other' });
    await sbx.http.put('/_sandbox/businesses/biz-lim', {
      max_daily_conversations_per_business: 'TIER_250',
      notify: false,
    });
    const customers = Array.from({ length: 250 }, () => uniqueRecipient());
    for (let i = 0; i < customers.length; i += 50) {
      await Promise.all(
        customers
          .slice(i, i + 50)
          .map((to, j) => send2026(sbx.http, (i + j) % 2 === 0 ? a : b, { to }, HELLO)),
      );
    }

    const over = await send2026(sbx.http, b, { to: uniqueRecipient() }, HELLO);
    const repeat = await send2026(sbx.http, a, { to: customers[1] }, HELLO);
    const elsewhere = await send2026(sbx.http, other, { to: uniqueRecipient() }, HELLO);
    const overStatus = await waitFor(() => statusesFor(sbx.receiver, over.data.messages[0].id)[0], {
      what: 'over',
    });
    const repeatStatus = await waitFor(() => statusesFor(sbx.receiver, repeat.data.messages[0].id)[0], {
      what: 'repeat',
    });
    const otherStatus = await waitFor(() => statusesFor(sbx.receiver, elsewhere.data.messages[0].id)[0], {
      what: 'elsewhere',
    });

    expect(over.status).toBe(200);
    expect([overStatus.status, overStatus.errors?.[0].code]).toEqual(['failed', 131048]);
    expect(repeatStatus.status).toBe('sent');
    expect(otherStatus.status).toBe('sent');
    const list = await sbx.http.get<{ data: { business_id: string; reached_24h: number }[] }>(
      '/_sandbox/businesses',
    );
    expect(list.data.data.find((x) => x.business_id === 'biz-lim')?.reached_24h).toBe(250);
  });

  it('when a customer wrote within 24 h, then a template to them does not count against the limit', async () => {
    const a = await sbx.registerNumber({ waba_id: 'waba-win', business_id: 'biz-win' });
    await sbx.http.put('/_sandbox/businesses/biz-win', {
      max_daily_conversations_per_business: 'TIER_250',
      notify: false,
    });
    const phone = uniqueRecipient();
    await sbx.http.post('/_sandbox/inbound', { phone_number_id: a, from: phone, text: 'Hi' });

    await send2026(sbx.http, a, { to: phone }, HELLO);
    const list = await sbx.http.get<{ data: { business_id: string; reached_24h: number }[] }>(
      '/_sandbox/businesses',
    );

    expect(list.data.data.find((x) => x.business_id === 'biz-win')?.reached_24h).toBe(0);
    expect(valuesOf(sbx.receiver, 'messages').length).toBeGreaterThan(0);
  });
});
