import Joi from 'joi';
import { commonEnvSchema, loadConfig, type CommonConfig } from '@bm/platform';

export interface IngressConfig extends CommonConfig {
  INGRESS_PORT: number;
  /** Echoed check of the upstream's verification GET (`hub.verify_token`). */
  INGRESS_VERIFY_TOKEN: string;
  /** Key of the upstream's `X-Hub-Signature-256` HMAC; the sandbox's default locally. */
  INGRESS_APP_SECRET: string;
  /** The secret before a rotation, accepted too until it is unset. */
  INGRESS_APP_SECRET_PREVIOUS?: string;
  /** Messaging, asked which tenant owns a phone_number_id. */
  MESSAGING_URL: string;
  MESSAGING_TIMEOUT_MS: number;
  /**
   * The campaign service, told of a customer's stop (STOP keyword, `user_preferences` stop) before the webhook is
   * answered; empty to leave stops to the broker's path alone (a stack without the campaign service).
   */
  CAMPAIGN_URL: string;
  /** How long a known number's owner is remembered (unknown numbers are asked again every time). */
  ACCOUNT_CACHE_TTL_MS: number;
  /**
   * How long a webhook's status reports and customer messages wait for those of other webhooks before they go to
   * the broker together (its 200 waits for their confirm): a burst costs the broker and messaging less than a
   * message at a time.
   */
  INGRESS_SEND_LINGER_MS: number;
  /** How often stored events that are not split yet are looked for. */
  INGRESS_PROCESS_INTERVAL_MS: number;
  /** Safety poll of the splitter while idle; a stored event wakes it (a notification while it sleeps). */
  INGRESS_PROCESS_IDLE_INTERVAL_MS: number;
  /** Failures that will not change on retry after which a stored body is given up (outcome `failed`). */
  INGRESS_FAIL_AFTER_ATTEMPTS: number;
  /** Largest webhook body; the upstream's reach 3 MB. */
  BODY_LIMIT: string;
}

/** The webhook-ingress service's configuration, read from the environment once. */
export function loadIngressConfig(env: NodeJS.ProcessEnv = process.env): Readonly<IngressConfig> {
  return loadConfig<IngressConfig>(
    {
      ...commonEnvSchema,
      INGRESS_PORT: Joi.number().port().default(3002),
      INGRESS_VERIFY_TOKEN: Joi.string().min(1).default('dev-verify-token'),
      INGRESS_APP_SECRET: Joi.string().min(1).default('dev-app-secret'),
      INGRESS_APP_SECRET_PREVIOUS: Joi.string().empty('').optional(),
      MESSAGING_URL: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .default('http://127.0.0.1:3001'),
      MESSAGING_TIMEOUT_MS: Joi.number().integer().min(100).default(5_000),
      CAMPAIGN_URL: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .allow('')
        .default('http://127.0.0.1:3003'),
      ACCOUNT_CACHE_TTL_MS: Joi.number().integer().min(0).default(60_000),
      INGRESS_SEND_LINGER_MS: Joi.number().integer().min(0).max(1_000).default(20),
      INGRESS_PROCESS_INTERVAL_MS: Joi.number().integer().min(10).default(100),
      INGRESS_PROCESS_IDLE_INTERVAL_MS: Joi.number().integer().min(10).default(5_000),
      INGRESS_FAIL_AFTER_ATTEMPTS: Joi.number().integer().min(1).default(5),
      BODY_LIMIT: Joi.string().default('3mb'),
    },
    env,
  );
}
