import { readFileSync } from 'node:fs';
import { EXAMPLE_RATE_CARD, parseRateCard, type RateCard } from '../domain/pricing/rate-card';

/**
 * The operator's rate card from `PRICING_RATE_CARD`: inline JSON, or the path of a JSON or CSV file; the example
 * card when unset. A card that cannot be read stops the service at start, naming the problem.
 */
export function loadRateCard(setting: string): RateCard {
  const value = setting.trim();
  if (value === '') return EXAMPLE_RATE_CARD;
  try {
    return parseRateCard(value.startsWith('{') ? value : readFileSync(value, 'utf8'));
  } catch (err) {
    throw new Error(`PRICING_RATE_CARD cannot be used: ${(err as Error).message}`, { cause: err });
  }
}
