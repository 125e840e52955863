import type { TemplateCategory } from '@bm/contracts';
import { priceOf, roundCost, type PricedRecipient, type RateCard } from '@bm/platform';
import type { CostEstimate } from '../ports/campaigns.port';

/** The pricing category the upstream charges a template's messages in: the template's own, lower case. */
const PRICING_CATEGORY: Record<TemplateCategory, string> = {
  MARKETING: 'marketing',
  UTILITY: 'utility',
  AUTHENTICATION: 'authentication',
};

/** Recipients who cost alike (one recipient, or those whose addresses begin alike), and how many they are. */
export interface RecipientsAlike {
  to: PricedRecipient;
  count: number;
}

/** A recipient as the card prices them: by phone, or by the country of their user id when that is their address. */
export const pricedRecipientOf = (r: { phone: string; userId: string | null }): PricedRecipient =>
  r.userId === null ? { phone: r.phone, userId: null } : { phone: null, userId: r.userId };

/**
 * What sending a template to these recipients costs by the rate card (CONTRACT.md, per-message pricing): each
 * message at the card's price for the template's category in its recipient's market, rounded as messaging rounds
 * a message's cost, then summed. Every message counts as charged (`regular`): a utility template the upstream
 * prices free inside a customer-service window makes the actual cost lower than the estimate, never higher.
 */
export function estimateCost(
  card: RateCard,
  category: TemplateCategory,
  recipients: Iterable<RecipientsAlike>,
): CostEstimate {
  const pricing = PRICING_CATEGORY[category];
  let amount = 0;
  for (const { to, count } of recipients) amount += roundCost(priceOf(card, pricing, to)) * count;
  return { amount: roundCost(amount), currency: card.currency };
}
