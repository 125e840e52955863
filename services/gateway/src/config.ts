import Joi from 'joi';
import { INBOX_STREAM } from '@bm/contracts';
import { commonEnvSchema, loadConfig, type CommonConfig } from '@bm/platform';

export interface GatewayConfig extends CommonConfig {
  GATEWAY_PORT: number;
  ADMIN_TOKEN: string;
  MESSAGING_URL: string;
  CAMPAIGN_URL: string;
  DISPATCHER_URL: string;
  INGRESS_URL: string;
  /** JSON object: plan name -> { limit, window_seconds }; a limit of null means unlimited. */
  RATE_LIMIT_PLANS: string;
  DEFAULT_PLAN: string;
  HEALTH_TIMEOUT_MS: number;
  FORWARD_TIMEOUT_MS: number;
  AUTH_CACHE_TTL_MS: number;
  ADMIN_BODY_LIMIT: string;
  /** The gateway's public origin (`https://api.example.com`), for invite links; unset, the request's own. */
  PUBLIC_URL?: string;
  /** A dashboard session ends after this long unused (30 minutes) and this long after sign-in (12 hours). */
  SESSION_IDLE_SECONDS: number;
  SESSION_ABSOLUTE_SECONDS: number;
  /** Sign-in attempts allowed per email and per client IP in each window before 429. */
  SIGNIN_MAX_PER_EMAIL: number;
  SIGNIN_MAX_PER_IP: number;
  SIGNIN_WINDOW_SECONDS: number;
  /** Proxies in front of the gateway whose X-Forwarded-For is believed (the client IP sign-in throttling counts). */
  TRUST_PROXY_HOPS: number;
  /** Where invites and password resets are mailed through (`smtp://host:port`); unset, no mail is sent. */
  SMTP_URL?: string;
  /** The sender of those mails. */
  MAIL_FROM: string;
  /** Password-reset requests allowed per email and per client IP in each window before 429. */
  PASSWORD_RESET_MAX_PER_EMAIL: number;
  PASSWORD_RESET_MAX_PER_IP: number;
  PASSWORD_RESET_WINDOW_SECONDS: number;
  /** The dashboard's static build, served under /dashboard; by default services/dashboard/dist. */
  DASHBOARD_DIR?: string;
  /** Inbox events kept per tenant for reconnecting browsers (`Last-Event-ID`); older ones are trimmed. */
  INBOX_STREAM_MAXLEN: number;
  /** How long an inbox event's id is remembered, so that a redelivery is not kept twice. */
  INBOX_DEDUPE_SECONDS: number;
  /** How often an open inbox stream gets its heartbeat comment and its credential is checked again. */
  INBOX_HEARTBEAT_MS: number;
}

const DEFAULT_PLANS = JSON.stringify({
  default: { limit: 200, window_seconds: 1 },
  pro: { limit: 1000, window_seconds: 1 },
  unlimited: { limit: null, window_seconds: 1 },
});

const internalUrl = Joi.string().uri({ scheme: ['http', 'https'] });

/** The gateway's configuration, read from the environment once. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GatewayConfig> {
  return loadConfig<GatewayConfig>(
    {
      ...commonEnvSchema,
      GATEWAY_PORT: Joi.number().port().default(3000),
      ADMIN_TOKEN: Joi.string().min(16).default('dev-admin-token-change-me'),
      MESSAGING_URL: internalUrl.default('http://127.0.0.1:3001'),
      CAMPAIGN_URL: internalUrl.default('http://127.0.0.1:3003'),
      DISPATCHER_URL: internalUrl.default('http://127.0.0.1:3004'),
      INGRESS_URL: internalUrl.default('http://127.0.0.1:3002'),
      RATE_LIMIT_PLANS: Joi.string().default(DEFAULT_PLANS),
      DEFAULT_PLAN: Joi.string().default('default'),
      HEALTH_TIMEOUT_MS: Joi.number().integer().min(50).max(10_000).default(1_000),
      FORWARD_TIMEOUT_MS: Joi.number().integer().min(100).default(30_000),
      AUTH_CACHE_TTL_MS: Joi.number().integer().min(0).max(300_000).default(30_000),
      ADMIN_BODY_LIMIT: Joi.string().default('100kb'),
      PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
      SESSION_IDLE_SECONDS: Joi.number()
        .integer()
        .min(1)
        .default(30 * 60),
      SESSION_ABSOLUTE_SECONDS: Joi.number()
        .integer()
        .min(1)
        .default(12 * 3600),
      SIGNIN_MAX_PER_EMAIL: Joi.number().integer().min(1).default(5),
      SIGNIN_MAX_PER_IP: Joi.number().integer().min(1).default(50),
      SIGNIN_WINDOW_SECONDS: Joi.number().integer().min(1).default(900),
      TRUST_PROXY_HOPS: Joi.number().integer().min(0).max(10).default(0),
      SMTP_URL: Joi.string().uri({ scheme: ['smtp', 'smtps'] }),
      MAIL_FROM: Joi.string().default('Business Messaging <no-reply@localhost>'),
      PASSWORD_RESET_MAX_PER_EMAIL: Joi.number().integer().min(1).default(3),
      PASSWORD_RESET_MAX_PER_IP: Joi.number().integer().min(1).default(20),
      PASSWORD_RESET_WINDOW_SECONDS: Joi.number().integer().min(1).default(3600),
      DASHBOARD_DIR: Joi.string(),
      INBOX_STREAM_MAXLEN: Joi.number().integer().min(100).max(100_000).default(5_000),
      INBOX_DEDUPE_SECONDS: Joi.number()
        .integer()
        .min(60)
        .max(7 * 86_400)
        .default(86_400),
      INBOX_HEARTBEAT_MS: Joi.number().integer().min(100).max(60_000).default(INBOX_STREAM.heartbeatMs),
    },
    env,
  );
}
