import Joi from 'joi';
import { commonEnvSchema, loadConfig, type CommonConfig } from '@bm/platform';

export interface DispatcherConfig extends CommonConfig {
  DISPATCHER_PORT: number;
  /** `all` serves the API and delivers; `api` and `worker` split them into separate deployments. */
  DISPATCHER_ROLE: 'all' | 'api' | 'worker';
  /** Sent as `User-Agent: <name>-Webhook/1.0`. */
  DISPATCHER_SERVICE_NAME: string;
  /** One attempt, from connect to the last byte read. */
  DISPATCHER_TIMEOUT_MS: number;
  DISPATCHER_MAX_RETRIES: number;
  DISPATCHER_RETRY_INTERVAL_MS: number;
  /** A receiver's longer Retry-After is honoured up to this. */
  DISPATCHER_RETRY_AFTER_MAX_MS: number;
  /** How long the previous signing secret keeps signing beside a new one. */
  DISPATCHER_SECRET_GRACE_MS: number;
  /** Accept http:// endpoints; never in production. */
  DISPATCHER_ALLOW_HTTP: boolean;
  /** Hosts (names, IPs or CIDR ranges) that may be reached although private, loopback or reserved. */
  DISPATCHER_ALLOWED_HOSTS: string;
  /** Attempts one replica runs at once. */
  DISPATCHER_CONCURRENCY: number;
  /** Attempts in flight toward one endpoint across all replicas. */
  DISPATCHER_ENDPOINT_CONCURRENCY: number;
  DISPATCHER_POLL_INTERVAL_MS: number;
  /** Longest pause between claims while they find nothing; a new delivery, or a retry's time, wakes it. */
  DISPATCHER_IDLE_POLL_INTERVAL_MS: number;
  /** An attempt's lease is the timeout plus this; after it another replica may take the delivery. */
  DISPATCHER_LEASE_GRACE_MS: number;
  DISPATCHER_RESPONSE_EXCERPT_BYTES: number;
  DISPATCHER_CONSUMER_PREFETCH: number;
  /** Finished deliveries, their attempts and events are kept this long (pending ones always). */
  DISPATCHER_RETENTION_DAYS: number;
  DISPATCHER_RETENTION_INTERVAL_MS: number;
  /** Key that seals the signing secrets at rest. */
  ENCRYPTION_KEY: string;
  BODY_LIMIT: string;
}

const LOCAL_HOSTS = '127.0.0.1,::1,localhost';

/** The dispatcher's configuration, read from the environment once. */
export function loadDispatcherConfig(env: NodeJS.ProcessEnv = process.env): Readonly<DispatcherConfig> {
  const development = (env.NODE_ENV ?? 'development') === 'development';
  return loadConfig<DispatcherConfig>(
    {
      ...commonEnvSchema,
      DISPATCHER_PORT: Joi.number().port().default(3004),
      DISPATCHER_ROLE: Joi.string().valid('all', 'api', 'worker').default('all'),
      DISPATCHER_SERVICE_NAME: Joi.string()
        .pattern(/^[A-Za-z0-9._-]{1,64}$/)
        .default('BusinessMessaging'),
      DISPATCHER_TIMEOUT_MS: Joi.number().integer().min(50).max(60_000).default(10_000),
      DISPATCHER_MAX_RETRIES: Joi.number().integer().min(0).max(20).default(3),
      DISPATCHER_RETRY_INTERVAL_MS: Joi.number().integer().min(10).default(10_000),
      DISPATCHER_RETRY_AFTER_MAX_MS: Joi.number().integer().min(0).default(300_000),
      DISPATCHER_SECRET_GRACE_MS: Joi.number()
        .integer()
        .min(0)
        .default(24 * 3600 * 1000),
      // A local run reaches receivers on this machine out of the box; tests and deployments opt in explicitly.
      DISPATCHER_ALLOW_HTTP: Joi.boolean()
        .default(development)
        .when('NODE_ENV', { is: 'production', then: Joi.valid(false) }),
      DISPATCHER_ALLOWED_HOSTS: Joi.string()
        .allow('')
        .default(development ? LOCAL_HOSTS : ''),
      DISPATCHER_CONCURRENCY: Joi.number().integer().min(1).max(5000).default(200),
      DISPATCHER_ENDPOINT_CONCURRENCY: Joi.number().integer().min(1).max(1000).default(20),
      DISPATCHER_POLL_INTERVAL_MS: Joi.number().integer().min(10).default(250),
      DISPATCHER_IDLE_POLL_INTERVAL_MS: Joi.number().integer().min(10).default(5_000),
      DISPATCHER_LEASE_GRACE_MS: Joi.number().integer().min(100).default(5_000),
      DISPATCHER_RESPONSE_EXCERPT_BYTES: Joi.number().integer().min(0).max(65_536).default(1_024),
      DISPATCHER_CONSUMER_PREFETCH: Joi.number().integer().min(1).max(1000).default(200),
      DISPATCHER_RETENTION_DAYS: Joi.number().min(0).default(30),
      DISPATCHER_RETENTION_INTERVAL_MS: Joi.number().integer().min(1000).default(600_000),
      ENCRYPTION_KEY: Joi.string().min(16).default('dev-encryption-key-change-me'),
      BODY_LIMIT: Joi.string().default('100kb'),
    },
    env,
  );
}
