import fc from 'fast-check';
import { EXAMPLE_RATE_CARD, MARKET_PREFIX_LENGTH, parseRateCard } from '@bm/platform';
import { estimateCost, pricedRecipientOf } from '../../src/domain/creating/estimate-cost';

/* A campaign's estimated cost (CONTRACT.md, per-message pricing): the rate card's price for the template's
 * category in each recipient's market, summed to 4 decimals. */

const one = (phone: string, userId: string | null = null) => ({
  to: pricedRecipientOf({ phone, userId }),
  count: 1,
});

describe('a campaign estimate', () => {
  it('when recipients are in several markets, then each is priced in its own, for the template category', () => {
    const recipients = [
      one('14155550100'), // market 1
      one('447700900123'), // market 44
      one('919876543210'), // market 91
      one('33612345678'), // no market of its own: the default
      one('US.13491208655302741918', 'US.13491208655302741918'), // by user id: the card names no US, the default
    ];
    expect(estimateCost(EXAMPLE_RATE_CARD, 'MARKETING', recipients)).toEqual({
      amount: 0.1736, // 0.025 + 0.0529 + 0.0107 + 0.0425 + 0.0425
      currency: 'USD',
    });
    // 0.004 + 0.022 + 0.0014 + 0.008 + 0.008, and 0.0135 + 0.0358 + 0.0014 + 0.0135 + 0.0135.
    expect(estimateCost(EXAMPLE_RATE_CARD, 'UTILITY', recipients).amount).toBe(0.0434);
    expect(estimateCost(EXAMPLE_RATE_CARD, 'AUTHENTICATION', recipients).amount).toBe(0.0777);
  });

  it("when a recipient is known by user id, then their user id's country is their market, not the digits after it", () => {
    const card = parseRateCard(
      JSON.stringify({
        currency: 'EUR',
        default: { marketing: 0.05 },
        markets: { '1': { marketing: 0.02 }, BR: { marketing: 0.07 } },
      }),
    );
    const byUserId = one('BR.13491208655302741918', 'BR.13491208655302741918');
    expect(estimateCost(card, 'MARKETING', [byUserId])).toEqual({ amount: 0.07, currency: 'EUR' });
  });

  it('when many recipients cost a fraction of a cent, then the sum is given to 4 decimals without float noise', () => {
    expect(estimateCost(EXAMPLE_RATE_CARD, 'MARKETING', [{ ...one('14155550100'), count: 996 }]).amount).toBe(
      24.9,
    );
    expect(estimateCost(EXAMPLE_RATE_CARD, 'UTILITY', [{ ...one('919876543210'), count: 3 }]).amount).toBe(
      0.0042,
    );
    expect(estimateCost(EXAMPLE_RATE_CARD, 'MARKETING', []).amount).toBe(0);
  });

  it('when recipients are counted by the beginning of their address, then the estimate is the one of the whole addresses', () => {
    const card = parseRateCard(
      JSON.stringify({
        currency: 'USD',
        default: { marketing: 0.05 },
        markets: {
          '1': { marketing: 0.025 },
          '1416': { marketing: 0.03 },
          '44': { marketing: 0.0529 },
          '7': { marketing: 0.08 },
          US: { marketing: 0.021 },
        },
      }),
    );
    const address = fc.oneof(
      fc.stringMatching(/^[1-9]\d{7,14}$/).map((phone) => ({ phone, userId: null })),
      fc.stringMatching(/^(US|BR)\.\d{20}$/).map((userId) => ({ phone: userId, userId })),
    );
    fc.assert(
      fc.property(fc.array(address, { maxLength: 40 }), (list) => {
        const whole = list.map((r) => ({ to: pricedRecipientOf(r), count: 1 }));
        // As preparation counts them: the first MARKET_PREFIX_LENGTH characters, and whether a user id.
        const groups = new Map<string, { prefix: string; byUserId: boolean; count: number }>();
        for (const r of list) {
          const prefix = r.phone.slice(0, MARKET_PREFIX_LENGTH);
          const key = `${r.userId !== null}:${prefix}`;
          const group = groups.get(key) ?? { prefix, byUserId: r.userId !== null, count: 0 };
          group.count += 1;
          groups.set(key, group);
        }
        const grouped = [...groups.values()].map((g) => ({
          to: pricedRecipientOf({ phone: g.prefix, userId: g.byUserId ? g.prefix : null }),
          count: g.count,
        }));
        expect(estimateCost(card, 'MARKETING', grouped)).toEqual(estimateCost(card, 'MARKETING', whole));
      }),
    );
  });
});
