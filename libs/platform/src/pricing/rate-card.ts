import Joi from 'joi';

/** What the upstream says of a message's price in its status reports (`pricing`), the latest report winning. */
export interface MessagePricing {
  /** `PMP` (per message, since July 2025) or `CBP` (per conversation, before). */
  model: string | null;
  /** `regular` (charged), `free_customer_service` or `free_entry_point`. */
  type: string | null;
  /** marketing, utility, authentication, authentication-international, service, marketing_lite, ... */
  category: string | null;
}

/** Price per message of each pricing category, in the card's currency. */
export type CategoryPrices = Readonly<Record<string, number>>;

/**
 * The operator's rate card (`PRICING_RATE_CARD`): per-category prices per recipient market, a calling-code prefix
 * (`"1"`, `"44"`, `"91"`) or a two-letter country (`"US"`, for customers known by user id), and a default for
 * every other market. Meta publishes its own each quarter; an operator copies what it is charged.
 */
export interface RateCard {
  currency: string;
  label: string;
  default: CategoryPrices;
  markets: Readonly<Record<string, CategoryPrices>>;
}

/**
 * The card shipped for when an operator sets none: an example, in USD, with a price for every category, so that
 * costs are never silently 0. Not Meta's prices.
 */
export const EXAMPLE_RATE_CARD: RateCard = {
  currency: 'USD',
  label: 'example rate card (not Meta prices): set PRICING_RATE_CARD to your own',
  default: {
    marketing: 0.0425,
    marketing_lite: 0.035,
    utility: 0.008,
    authentication: 0.0135,
    'authentication-international': 0.028,
    service: 0.002,
    referral_conversion: 0.015,
  },
  markets: {
    '1': { marketing: 0.025, marketing_lite: 0.02, utility: 0.004, authentication: 0.0135, service: 0.001 },
    '44': {
      marketing: 0.0529,
      marketing_lite: 0.045,
      utility: 0.022,
      authentication: 0.0358,
      service: 0.002,
    },
    '49': { marketing: 0.1365, marketing_lite: 0.11, utility: 0.055, authentication: 0.0768, service: 0.003 },
    '52': {
      marketing: 0.0305,
      marketing_lite: 0.025,
      utility: 0.0085,
      authentication: 0.0239,
      service: 0.001,
    },
    '55': { marketing: 0.0625, marketing_lite: 0.05, utility: 0.008, authentication: 0.0315, service: 0.002 },
    '91': {
      marketing: 0.0107,
      marketing_lite: 0.009,
      utility: 0.0014,
      authentication: 0.0014,
      service: 0.0005,
    },
  },
};

/**
 * How much of an address decides its market: a card names calling-code prefixes of up to 4 digits, and a user
 * id's country is its first two letters (`US.`), so two addresses that begin alike this far cost alike.
 */
export const MARKET_PREFIX_LENGTH = 4;

const prices = Joi.object().pattern(Joi.string().min(1), Joi.number().min(0).max(1000));
const cardSchema = Joi.object<RateCard>({
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
  label: Joi.string().allow('').default(''),
  default: prices.default({}),
  markets: Joi.object()
    .pattern(Joi.string().pattern(new RegExp(`^(\\d{1,${MARKET_PREFIX_LENGTH}}|[A-Z]{2})$`)), prices)
    .default({}),
});

/**
 * Reads a rate card from JSON (`{currency, label?, default, markets}`) or CSV (a header `market,category,price`
 * and an optional `currency` column; market `default` for the fallback). Throws naming what is wrong.
 */
export function parseRateCard(text: string): RateCard {
  const trimmed = text.trim();
  const raw = trimmed.startsWith('{') ? (JSON.parse(trimmed) as unknown) : csvCard(trimmed);
  const checked = cardSchema.validate(raw, { abortEarly: false });
  if (checked.error) throw new Error(`rate card: ${checked.error.message}`);
  return checked.value;
}

function csvCard(text: string): Record<string, unknown> {
  const [header, ...rows] = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const columns = (header ?? '').split(',').map((c) => c.trim().toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  if (at('market') < 0 || at('category') < 0 || at('price') < 0)
    throw new Error('rate card: a CSV card needs a header with market, category and price');
  const card = {
    currency: '',
    label: '',
    default: {} as Record<string, number>,
    markets: {} as Record<string, Record<string, number>>,
  };
  rows.forEach((line, i) => {
    const cells = line.split(',').map((c) => c.trim());
    const [market, category, price] = [
      cells[at('market')],
      cells[at('category')],
      Number(cells[at('price')]),
    ];
    if (!market || !category || !Number.isFinite(price))
      throw new Error(`rate card: CSV line ${i + 2} needs a market, a category and a price`);
    if (at('currency') >= 0 && cells[at('currency')]) card.currency = cells[at('currency')];
    const target = market === 'default' ? card.default : (card.markets[market] ??= {});
    target[category] = price;
  });
  return card;
}

/** Whom a message goes to, as a card prices it: a phone (digits), or a user id (`US.1349...`) where none is known. */
export interface PricedRecipient {
  phone: string | null;
  userId: string | null;
}

/**
 * The prices of a recipient's market: the longest calling-code prefix of their phone that the card names, else
 * the two-letter country their user id begins with (`US.1349...`), else the card's default.
 */
function pricesFor(card: RateCard, to: PricedRecipient): CategoryPrices {
  const digits = to.phone?.replace(/\D/g, '') ?? '';
  for (let length = Math.min(MARKET_PREFIX_LENGTH, digits.length); length > 0; length -= 1) {
    const market = card.markets[digits.slice(0, length)];
    if (market) return market;
  }
  const country = /^([A-Z]{2})\./.exec(to.userId ?? '')?.[1];
  return (country && card.markets[country]) || card.default;
}

/**
 * A message's cost once the upstream priced it (CONTRACT.md, per-message pricing): 0 unless its pricing type is
 * `regular`, else the card's price for its category in the recipient's market, falling back to the default's.
 */
export function costOf(card: RateCard, pricing: MessagePricing, to: PricedRecipient): number {
  if (pricing.type !== 'regular' || !pricing.category) return 0;
  return priceOf(card, pricing.category, to);
}

/** The card's price of one message of a pricing category to a recipient: their market's, else the default's. */
export function priceOf(card: RateCard, category: string, to: PricedRecipient): number {
  return pricesFor(card, to)[category] ?? card.default[category] ?? 0;
}

/** An amount to the precision message costs are kept in (4 decimals), without the float noise of summing. */
export const roundCost = (amount: number): number => Math.round(amount * 10_000) / 10_000;
