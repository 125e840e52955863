import { costOf, EXAMPLE_RATE_CARD, parseRateCard } from '../../src/pricing/rate-card';

/* The rate card (CONTRACT.md, per-message pricing): a message's cost from its pricing and its recipient's market. */
describe('the rate card', () => {
  const card = parseRateCard(
    JSON.stringify({
      currency: 'EUR',
      default: { marketing: 0.05, utility: 0.01 },
      markets: {
        '1': { marketing: 0.025 },
        '1416': { marketing: 0.03 },
        '44': { marketing: 0.06 },
        BR: { marketing: 0.07 },
      },
    }),
  );
  const regular = (category: string) => ({ model: 'PMP', type: 'regular', category });

  it('when a phone matches several calling-code prefixes, then the longest decides its market', () => {
    expect(costOf(card, regular('marketing'), { phone: '14155550100', userId: null })).toBe(0.025);
    expect(costOf(card, regular('marketing'), { phone: '14165550100', userId: null })).toBe(0.03);
    expect(costOf(card, regular('marketing'), { phone: '447700900123', userId: null })).toBe(0.06);
  });

  it('when the market has no price for the category, or no market matches, then the default is used', () => {
    expect(costOf(card, regular('utility'), { phone: '14155550100', userId: null })).toBe(0.01);
    expect(costOf(card, regular('marketing'), { phone: '4915112345678', userId: null })).toBe(0.05);
  });

  it('when the customer is known by user id only, then its two-letter country is the market', () => {
    expect(costOf(card, regular('marketing'), { phone: null, userId: 'BR.13491208655302741918' })).toBe(0.07);
    expect(costOf(card, regular('marketing'), { phone: null, userId: 'US.ENT.11815799212886844830' })).toBe(
      0.05,
    );
  });

  it('when the pricing type is not regular (free, or the old wire without a type), then the cost is 0', () => {
    const to = { phone: '14155550100', userId: null };
    expect(costOf(card, { model: 'PMP', type: 'free_customer_service', category: 'service' }, to)).toBe(0);
    expect(costOf(card, { model: 'PMP', type: 'free_entry_point', category: 'marketing' }, to)).toBe(0);
    expect(costOf(card, { model: 'CBP', type: null, category: 'marketing' }, to)).toBe(0);
  });

  it('when a card is CSV, then it reads the same as JSON', () => {
    const csv = parseRateCard(
      ['market,category,price,currency', 'default,marketing,0.05,EUR', '1,marketing,0.025,EUR'].join('\n'),
    );
    expect(csv).toEqual({
      currency: 'EUR',
      label: '',
      default: { marketing: 0.05 },
      markets: { '1': { marketing: 0.025 } },
    });
  });

  it('when a card is not a card, then reading it names what is wrong', () => {
    expect(() => parseRateCard('{"currency":"euro"}')).toThrow(/currency/);
    expect(() => parseRateCard('market,price\n1,0.02')).toThrow(/header/);
    expect(() => parseRateCard('{"currency":"USD","markets":{"UK1":{}}}')).toThrow(/markets/);
  });

  it('when no card is set, then the shipped example prices every category above 0, in USD', () => {
    expect(EXAMPLE_RATE_CARD.currency).toBe('USD');
    expect(EXAMPLE_RATE_CARD.label).toMatch(/example/);
    const categories = [
      'marketing',
      'marketing_lite',
      'utility',
      'authentication',
      'authentication-international',
      'service',
      'referral_conversion',
    ];
    for (const category of categories) expect(EXAMPLE_RATE_CARD.default[category]).toBeGreaterThan(0);
  });
});
