import { readFileSync } from 'node:fs';
import Joi from 'joi';
import type { Logger } from '../logger';
import { EXAMPLE_RATE_CARD, parseRateCard, type RateCard } from './rate-card';

/** The setting of a service that prices messages; its config.ts spreads it into its schema. */
export interface RateCardConfig {
  /** The operator's rate card: inline JSON or a JSON/CSV file path; empty for the shipped example card. */
  PRICING_RATE_CARD: string;
}

export const rateCardEnvSchema = { PRICING_RATE_CARD: Joi.string().allow('').default('') };

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

/**
 * A service's rate card (loadRateCard); when it is the example card, says so once, where an operator looks,
 * naming what the service reckons with it (`message costs`).
 */
export function rateCardFromSetting(setting: string, logger: Logger, reckons: string): RateCard {
  const card = loadRateCard(setting);
  if (card === EXAMPLE_RATE_CARD)
    logger.warn(`PRICING_RATE_CARD is not set: ${reckons} use the example rate card`, {
      currency: EXAMPLE_RATE_CARD.currency,
    });
  return card;
}
