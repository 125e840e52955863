import Joi from 'joi';

/** Environment variables every service reads; each service's config.ts adds its own. */
export const commonEnvSchema = {
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  LOG_LEVEL: Joi.string().valid('error', 'warn', 'info', 'http', 'debug', 'silent').default('info'),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .default('postgres://postgres@127.0.0.1:5432/business_messaging'),
  DATABASE_POOL_SIZE: Joi.number().integer().min(1).max(200).default(10),
  AMQP_URL: Joi.string()
    .uri({ scheme: ['amqp', 'amqps'] })
    .default('amqp://guest:guest@127.0.0.1:5672'),
  AMQP_PREFIX: Joi.string()
    .pattern(/^[a-z0-9_.-]*$/)
    .allow('')
    .default('bm'),
  REDIS_URL: Joi.string()
    .uri({ scheme: ['redis', 'rediss'] })
    .default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: Joi.string().allow('').default('bm:'),
  INTERNAL_TOKEN: Joi.string().min(16).default('dev-internal-token-change-me'),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  OUTBOX_RETENTION_HOURS: Joi.number().integer().min(1).max(720).default(24),
  AMQP_QUEUE_EXPIRES_MS: Joi.number().integer().min(1000).optional(),
};

/**
 * Validates the environment against a joi schema once at start-up and returns a frozen, typed object.
 * Unknown variables are ignored; a bad value stops the process with every problem listed.
 */
export function loadConfig<T>(
  schema: Joi.PartialSchemaMap,
  env: NodeJS.ProcessEnv = process.env,
): Readonly<T> {
  const result: Joi.ValidationResult<T> = Joi.object<T>(schema)
    .options({ allowUnknown: true, stripUnknown: true, abortEarly: false, convert: true })
    .validate(env);
  if (result.error) {
    throw new Error(`Invalid configuration: ${result.error.details.map((d) => d.message).join('; ')}`);
  }
  return Object.freeze(result.value);
}

export interface CommonConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  LOG_LEVEL: string;
  DATABASE_URL: string;
  DATABASE_POOL_SIZE: number;
  AMQP_URL: string;
  AMQP_PREFIX: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  INTERNAL_TOKEN: string;
  SHUTDOWN_TIMEOUT_MS: number;
  /** How long published outbox rows are kept for inspection before the relay deletes them. */
  OUTBOX_RETENTION_HOURS: number;
  /** Tests only: unused queues expire, so a run leaves nothing behind. */
  AMQP_QUEUE_EXPIRES_MS?: number;
}
