import type { DataSource } from 'typeorm';
import {
  createHttpApp,
  createLogger,
  createRedis,
  createServiceRuntime,
  DeadLetterQueues,
  serviceMetrics,
  type RedisClient,
  type ServiceRuntime,
} from '@bm/platform';
import type { GatewayConfig } from './config';
import { ApiKeyRepository } from './data-access/api-key.repository';
import { AuthInvalidationChannel } from './data-access/auth-invalidation.store';
import { createGatewayDataSource } from './data-access/data-source';
import { TenantRepository } from './data-access/tenant.repository';
import { WindowCounterStore } from './data-access/window-counter.store';
import { createDashboardParts } from './dashboard';
import { ApiKeyAuthenticator } from './domain/authenticate-api-key.use-case';
import { parsePlans } from './domain/plans';
import { RateLimiter } from './domain/rate-limiter';
import { adminRouter } from './entry-points/http/admin.routes';
import { docsRouter } from './entry-points/http/docs.routes';
import { createForwarder, type Forwarder } from './entry-points/http/forward';
import { healthRouter } from './entry-points/http/health.routes';
import { publicApiRouter, upstreamWebhookRouter } from './entry-points/http/public-api.routes';

export interface Gateway extends ServiceRuntime {
  dataSource: DataSource;
  redis: RedisClient;
}

/** Wires the gateway: repositories, authenticator, rate limiter, forwarder and the three routers. */
export async function createGateway(config: GatewayConfig): Promise<Gateway> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const plans = parsePlans(config.RATE_LIMIT_PLANS, config.DEFAULT_PLAN);
  const dataSource = createGatewayDataSource(config);
  await dataSource.initialize();
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX, logger });
  const tenants = new TenantRepository(dataSource);
  const keys = new ApiKeyRepository(dataSource);
  const rateLimiter = new RateLimiter(new WindowCounterStore(redis), logger);
  // Key and plan changes reach every replica over pub/sub (a subscriber needs its own connection).
  const invalidation = new AuthInvalidationChannel(
    redis,
    createRedis({ url: config.REDIS_URL, logger }),
    `${config.REDIS_PREFIX}gw:auth-changed`,
    logger,
  );
  const authenticator = new ApiKeyAuthenticator(keys, invalidation, config.AUTH_CACHE_TTL_MS);
  const dashboard = createDashboardParts(config, { redis, dataSource, tenants, keys, invalidation, logger });
  const forward: Forwarder = createForwarder(config.INTERNAL_TOKEN, config.FORWARD_TIMEOUT_MS, logger);
  // The operator's dead-letter commands reach the broker directly; the connection opens on first use.
  const deadLetters = new DeadLetterQueues({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
  const targets = {
    messaging: config.MESSAGING_URL,
    campaign: config.CAMPAIGN_URL,
    dispatcher: config.DISPATCHER_URL,
    ingress: config.INGRESS_URL,
  };

  const app = createHttpApp({
    logger,
    parseJson: false,
    routes: (a) => {
      // The public API first: it is nearly every request, and no other router answers under /api/v1, so its
      // requests need not walk past the docs, health, dashboard and admin routes to reach it.
      a.use(
        publicApiRouter(
          { authenticator, rateLimiter, plans, defaultPlan: config.DEFAULT_PLAN, ...dashboard.credentials },
          forward,
          targets,
          dashboard.tenantRoutes,
        ),
      );
      a.use(docsRouter());
      a.use(healthRouter(dataSource, redis, config.HEALTH_TIMEOUT_MS));
      a.use(upstreamWebhookRouter(forward, targets));
      dashboard.mount(a);
      a.use(
        '/admin/v1',
        adminRouter(
          {
            adminToken: config.ADMIN_TOKEN,
            tenants,
            keys,
            plans,
            defaultPlan: config.DEFAULT_PLAN,
            invalidation,
            forward,
            targets,
            bodyLimit: config.ADMIN_BODY_LIMIT,
            deadLetters,
          },
          dashboard.adminRoutes,
        ),
      );
    },
  });

  // Behind N proxies, req.ip is the client's address they report (0: the socket's peer).
  app.set('trust proxy', config.TRUST_PROXY_HOPS);

  const runtime = createServiceRuntime({
    name: 'gateway',
    config,
    logger,
    metrics: serviceMetrics('gateway'),
    dataSource,
    redis,
    port: config.GATEWAY_PORT,
    http: { app },
    connections: [
      { name: 'forwarder', close: () => forward.close() },
      { name: 'dead letters', close: () => deadLetters.close() },
      { name: 'auth invalidation', close: () => invalidation.close() },
    ],
  });
  return { ...runtime, dataSource, redis };
}
