import { waitFor } from '@bm/platform/testing';
import { connectTenant, useMessaging } from './factories/messaging';

/*
 * `business_capability_update` as the upstream writes it (WIRE-2026.md, "Messaging limits per business portfolio"),
 * published by webhook-ingress as an account update with the change's value as `details`. Source: Meta's
 * business_capability_update reference (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/
 * reference/business_capability_update, in the docs index and a public repository's copy): its parameter table
 * names `max_daily_conversations_per_business` TIER_250 … TIER_UNLIMITED, its payload example writes the number
 * 2000 beside `max_phone_numbers_per_waba` 25; the older `max_daily_conversation_per_phone` wrote -1 for unlimited.
 * Ids are our own; fields we do not know ride along.
 */
describe("messaging alone: the portfolio's limit as the upstream writes it", () => {
  const { m } = useMessaging();

  it.each([
    ['a tier name', 'TIER_2K', 'TIER_2K'],
    ["the number of Meta's payload example", 2000, 'TIER_2K'],
    ['-1 (unlimited)', -1, 'TIER_UNLIMITED'],
  ])(
    'when business_capability_update names the limit as %s, with fields we do not know, then the numbers of the WABA take the tier',
    async (_, limit, tier) => {
      const t = await connectTenant(m);
      await m.publish('inbound.account_update', {
        waba_id: t.wabaId,
        phone_number_id: null,
        field: 'business_capability_update',
        event: null,
        details: {
          max_daily_conversations_per_business: limit,
          max_phone_numbers_per_waba: 25,
          x_future_object: { level: 1, list: [1, 'two', null] },
        },
      });
      const numbers = async () =>
        (await t.api.get('/api/v1/channel-accounts').expect(200)).body.data.channel_accounts as Array<
          Record<string, unknown>
        >;
      await waitFor(async () => (await numbers()).every((n) => n.tier === tier) || undefined, {
        what: `the portfolio on ${tier}`,
      });
      expect(await numbers()).toEqual([
        expect.objectContaining({ channel_account_id: t.channelAccountId, tier }),
      ]);
    },
  );
});
