import Joi from 'joi';
import {
  commonEnvSchema,
  loadConfig,
  rateCardEnvSchema,
  type CommonConfig,
  type RateCardConfig,
} from '@bm/platform';
import { MAX_SENDS_PER_COMMAND } from '@bm/contracts';

/** PRICING_RATE_CARD is messaging's setting too: the estimates and the messages' costs come from one card. */
export interface CampaignConfig extends CommonConfig, RateCardConfig {
  CAMPAIGN_PORT: number;
  /** `all` serves the API and runs the background work; `api` and `worker` split them into deployments. */
  CAMPAIGN_ROLE: 'all' | 'api' | 'worker';
  MESSAGING_URL: string;
  /** One internal call to messaging (template, capacity), from connect to the last byte. */
  MESSAGING_TIMEOUT_MS: number;
  /** How often the dispatcher looks for due, running and throttled campaigns. */
  DISPATCH_INTERVAL_MS: number;
  /** Longest pause of the dispatcher while its passes find nothing; new and due campaigns wake it. */
  DISPATCH_IDLE_INTERVAL_MS: number;
  /** Send commands one campaign may have in flight (requested, not yet answered by messaging). */
  DISPATCH_MAX_IN_FLIGHT: number;
  /** Recipients requested per campaign per dispatcher pass. */
  DISPATCH_BATCH_SIZE: number;
  /**
   * Recipients per send command (`messaging.sends_requested`); 1 publishes one `messaging.send_requested` per
   * recipient, for messaging replicas older than the batch command.
   */
  SEND_COMMAND_SIZE: number;
  /** A throttled campaign asks for capacity again after this. */
  THROTTLE_RECHECK_MS: number;
  /** Later parts of a split campaign are planned this far apart (one day). */
  SPLIT_PART_INTERVAL_MS: number;
  /** How often preparation looks for lists left by a crashed replica. */
  PREPARE_SWEEP_INTERVAL_MS: number;
  /** Longest pause of the preparation sweep (a crash recovery: the replica that took a list prepares it). */
  PREPARE_SWEEP_IDLE_INTERVAL_MS: number;
  /** Large enough for 50,000 recipients with their variables. */
  BODY_LIMIT: string;
  /**
   * How old a campaign's cost so far may be before a read asks messaging again: at most one sum of a campaign's
   * messages' costs per interval, however many clients poll it.
   */
  COST_REFRESH_MS: number;
}

/** The campaign service's configuration, read from the environment once. */
export function loadCampaignConfig(env: NodeJS.ProcessEnv = process.env): Readonly<CampaignConfig> {
  return loadConfig<CampaignConfig>(
    {
      ...commonEnvSchema,
      CAMPAIGN_PORT: Joi.number().port().default(3003),
      CAMPAIGN_ROLE: Joi.string().valid('all', 'api', 'worker').default('all'),
      MESSAGING_URL: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .default('http://127.0.0.1:3001'),
      MESSAGING_TIMEOUT_MS: Joi.number().integer().min(100).default(5_000),
      DISPATCH_INTERVAL_MS: Joi.number().integer().min(10).default(250),
      DISPATCH_IDLE_INTERVAL_MS: Joi.number().integer().min(10).default(5_000),
      DISPATCH_MAX_IN_FLIGHT: Joi.number().integer().min(1).max(100_000).default(2_000),
      DISPATCH_BATCH_SIZE: Joi.number().integer().min(1).max(10_000).default(1_000),
      SEND_COMMAND_SIZE: Joi.number().integer().min(1).max(MAX_SENDS_PER_COMMAND).default(200),
      THROTTLE_RECHECK_MS: Joi.number().integer().min(10).default(30_000),
      SPLIT_PART_INTERVAL_MS: Joi.number()
        .integer()
        .min(1000)
        .default(24 * 3600 * 1000),
      PREPARE_SWEEP_INTERVAL_MS: Joi.number().integer().min(50).default(2_000),
      PREPARE_SWEEP_IDLE_INTERVAL_MS: Joi.number().integer().min(50).default(30_000),
      BODY_LIMIT: Joi.string().default('32mb'),
      COST_REFRESH_MS: Joi.number().integer().min(0).default(5_000),
      ...rateCardEnvSchema,
    },
    env,
  );
}
