import Joi from 'joi';
import {
  commonEnvSchema,
  loadConfig,
  rateCardEnvSchema,
  type CommonConfig,
  type RateCardConfig,
} from '@bm/platform';

export interface MessagingConfig extends CommonConfig, RateCardConfig {
  MESSAGING_PORT: number;
  /** `all` serves the API and runs the workers; `api` and `worker` split them into separate deployments. */
  MESSAGING_ROLE: 'all' | 'api' | 'worker';
  /** The upstream network; the sandbox by default. */
  UPSTREAM_BASE_URL: string;
  UPSTREAM_API_VERSION: string;
  /** How long refusals that ask for time (130429, 131056, 131057) are retried before the message fails. */
  UPSTREAM_RETRY_WINDOW_MS: number;
  UPSTREAM_TIMEOUT_MS: number;
  /** Key that seals upstream access tokens at rest. */
  ENCRYPTION_KEY: string;
  DEFAULT_THROUGHPUT_PER_SECOND: number;
  /** Sends are paced at this fraction of a number's rate, slack for network jitter (sliding-window upstreams). */
  THROUGHPUT_SAFETY: number;
  SEND_CONCURRENCY: number;
  SEND_MAX_ATTEMPTS: number;
  SEND_RETRY_BASE_MS: number;
  SCHEDULER_INTERVAL_MS: number;
  /**
   * Longest pause of the scheduler while its passes find nothing (its crash-recovery sweeps run this often when
   * idle); scheduled messages and retries wake it at their time.
   */
  SCHEDULER_IDLE_INTERVAL_MS: number;
  /** Status reports no message ever claimed are deleted this long after they arrived. */
  PENDING_REPORT_RETENTION_HOURS: number;
  /** How long after the upstream timeout an unfinished attempt is taken as abandoned by a dead worker. */
  ATTEMPT_GRACE_MS: number;
  /**
   * How long a send whose outcome is unknown (worker died in the call, timeout, connection broken after the
   * request was written) waits, from its attempt's start, for an upstream status report naming its attempt.
   */
  UNKNOWN_OUTCOME_WINDOW_MS: number;
  /** What settles such a send when no report came: `resend` (at most once, the default) or `fail` (never a duplicate). */
  UNKNOWN_OUTCOME_POLICY: 'fail' | 'resend';
  /**
   * How far a number's status reports must have come past a send of unknown outcome, beyond the longest call, for
   * its silence to prove the upstream never took it (then it is sent again at once): the reordering of reports the
   * upstream may show, with room to spare (README, failures).
   */
  REPORT_ORDER_MARGIN_MS: number;
  /**
   * How long a send worker's lease on its claims lasts unless renewed (it is renewed five times within it): once it
   * has lapsed, the worker is taken as dead and its claims are taken over at once. A worker never hands a claim
   * to the upstream while its own lease may have lapsed.
   */
  SEND_WORKER_LEASE_MS: number;
  /** A queued message untouched this long gets a new delivery command (its first may have been lost). */
  STRANDED_AFTER_MS: number;
  FREQUENCY_CAP_RETRY_DELAY_MS: number;
  CAPACITY_RESERVATION_TTL_MS: number;
  /** The tier limit's rolling window (24 h); shorter only in tests. */
  CAPACITY_WINDOW_MS: number;
  BODY_LIMIT: string;
  /** How often flow sessions that waited past their timeout are ended. */
  FLOW_SWEEP_INTERVAL_MS: number;
  /** The gateway's internal API: who the tenant's dashboard users are (a conversation's assignee). */
  GATEWAY_URL: string;
  GATEWAY_TIMEOUT_MS: number;
}

/** The messaging service's configuration, read from the environment once. */
export function loadMessagingConfig(env: NodeJS.ProcessEnv = process.env): Readonly<MessagingConfig> {
  return loadConfig<MessagingConfig>(
    {
      ...commonEnvSchema,
      MESSAGING_PORT: Joi.number().port().default(3001),
      MESSAGING_ROLE: Joi.string().valid('all', 'api', 'worker').default('all'),
      UPSTREAM_BASE_URL: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .default('http://127.0.0.1:4010'),
      UPSTREAM_API_VERSION: Joi.string()
        .pattern(/^v\d+\.\d+$/)
        .default('v24.0'),
      UPSTREAM_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
      UPSTREAM_RETRY_WINDOW_MS: Joi.number()
        .integer()
        .min(1000)
        .default(10 * 60 * 1000),
      ENCRYPTION_KEY: Joi.string().min(16).default('dev-encryption-key-change-me'),
      DEFAULT_THROUGHPUT_PER_SECOND: Joi.number().integer().min(1).max(10_000).default(80),
      THROUGHPUT_SAFETY: Joi.number().min(0.5).max(1).default(0.96),
      SEND_CONCURRENCY: Joi.number().integer().min(1).max(2000).default(200),
      SEND_MAX_ATTEMPTS: Joi.number().integer().min(1).max(20).default(5),
      SEND_RETRY_BASE_MS: Joi.number().integer().min(10).default(2_000),
      SCHEDULER_INTERVAL_MS: Joi.number().integer().min(20).default(250),
      SCHEDULER_IDLE_INTERVAL_MS: Joi.number().integer().min(20).default(5_000),
      PENDING_REPORT_RETENTION_HOURS: Joi.number().min(0).default(168),
      ATTEMPT_GRACE_MS: Joi.number().integer().min(0).default(30_000),
      UNKNOWN_OUTCOME_WINDOW_MS: Joi.number()
        .integer()
        .min(1000)
        .default(15 * 60 * 1000),
      UNKNOWN_OUTCOME_POLICY: Joi.string().valid('fail', 'resend').default('resend'),
      REPORT_ORDER_MARGIN_MS: Joi.number().integer().min(0).default(10_000),
      SEND_WORKER_LEASE_MS: Joi.number().integer().min(500).default(10_000),
      STRANDED_AFTER_MS: Joi.number().integer().min(1000).default(300_000),
      FREQUENCY_CAP_RETRY_DELAY_MS: Joi.number()
        .integer()
        .min(0)
        .default(26 * 3600 * 1000),
      CAPACITY_RESERVATION_TTL_MS: Joi.number()
        .integer()
        .min(1000)
        .default(24 * 3600 * 1000),
      CAPACITY_WINDOW_MS: Joi.number()
        .integer()
        .min(1000)
        .default(24 * 3600 * 1000),
      BODY_LIMIT: Joi.string().default('1mb'),
      FLOW_SWEEP_INTERVAL_MS: Joi.number().integer().min(20).default(5_000),
      GATEWAY_URL: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .default('http://127.0.0.1:3000'),
      GATEWAY_TIMEOUT_MS: Joi.number().integer().min(100).default(5_000),
      ...rateCardEnvSchema,
    },
    env,
  );
}
