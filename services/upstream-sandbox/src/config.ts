import Joi from 'joi';
import { commonEnvSchema, loadConfig } from '@bm/platform';

/** The sandbox's settings, read from the environment once at start. */
export interface SandboxConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  SANDBOX_PORT: number;
  SANDBOX_APP_SECRET: string;
  SANDBOX_WEBHOOK_URL: string;
  /** Offsets from acceptance, in order: sent, delivered, read. Empty turns status webhooks off. */
  SANDBOX_STATUS_DELAYS_MS: number[];
  SANDBOX_DEFAULT_MPS: number;
  SANDBOX_SEED_TEMPLATES: boolean;
  SANDBOX_FAULT_PATTERNS: boolean;
  SANDBOX_DEFAULT_WABA_ID: string;
  SANDBOX_DEFAULT_DISPLAY_PHONE_NUMBER: string;
  SANDBOX_WEBHOOK_MAX_ATTEMPTS: number;
  SANDBOX_WEBHOOK_RETRY_BASE_MS: number;
  /** The longest pause between two tries of a refused webhook (equal to the base: a fixed interval). */
  SANDBOX_WEBHOOK_RETRY_MAX_MS: number;
  SANDBOX_MAX_RECORDS: number;
  /** The Graph API version the sandbox plays at least; v24.0 and later speak the 2026 wire (WIRE-2026.md). */
  SANDBOX_GRAPH_VERSION: string;
}

const delaysSchema = Joi.string()
  .allow('')
  .pattern(/^\s*\d+\s*(,\s*\d+\s*){0,2}$/)
  .custom((value: string) =>
    value.trim() === '' ? [] : value.split(',').map((part) => Number(part.trim())),
  );

export const sandboxEnvSchema = {
  NODE_ENV: commonEnvSchema.NODE_ENV,
  LOG_LEVEL: commonEnvSchema.LOG_LEVEL,
  SHUTDOWN_TIMEOUT_MS: commonEnvSchema.SHUTDOWN_TIMEOUT_MS,
  SANDBOX_PORT: Joi.number().port().default(4010),
  SANDBOX_APP_SECRET: Joi.string().min(1).default('dev-app-secret'),
  SANDBOX_WEBHOOK_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:3002/api/webhooks/channel'),
  SANDBOX_STATUS_DELAYS_MS: delaysSchema.default([200, 400, 600]),
  SANDBOX_DEFAULT_MPS: Joi.number().integer().min(0).default(80),
  SANDBOX_SEED_TEMPLATES: Joi.boolean().default(true),
  SANDBOX_FAULT_PATTERNS: Joi.boolean().default(true),
  SANDBOX_DEFAULT_WABA_ID: Joi.string().min(1).default('100000000000001'),
  SANDBOX_DEFAULT_DISPLAY_PHONE_NUMBER: Joi.string().min(1).default('15550000000'),
  SANDBOX_WEBHOOK_MAX_ATTEMPTS: Joi.number().integer().min(1).max(20).default(5),
  SANDBOX_WEBHOOK_RETRY_BASE_MS: Joi.number().integer().min(1).default(500),
  SANDBOX_WEBHOOK_RETRY_MAX_MS: Joi.number().integer().min(1).default(3_600_000),
  SANDBOX_MAX_RECORDS: Joi.number().integer().min(1).default(100_000),
  SANDBOX_GRAPH_VERSION: Joi.string()
    .pattern(/^v\d+\.\d+$/)
    .default('v21.0'),
};

/** Validates the environment; a bad value stops the process with every problem listed. */
export function loadSandboxConfig(env: NodeJS.ProcessEnv = process.env): Readonly<SandboxConfig> {
  const config = loadConfig<SandboxConfig>(sandboxEnvSchema, env);
  // loadConfig freezes the object only; the delay list is an array inside it.
  Object.freeze(config.SANDBOX_STATUS_DELAYS_MS);
  return config;
}
