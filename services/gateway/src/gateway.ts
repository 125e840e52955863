import type { DataSource } from 'typeorm';
import {
  amqpClientFor,
  createHttpApp,
  newUlid,
  createLogger,
  createRedis,
  createServiceRuntime,
  DeadLetterQueues,
  pingDatabase,
  serviceMetrics,
  type RedisClient,
  type ServiceRuntime,
} from '@bm/platform';
import type { GatewayConfig } from './config';
import { ApiKeyRepository } from './data-access/api-key.repository';
import { AuditLogRepository } from './data-access/audit-log.repository';
import { AuthInvalidationChannel } from './data-access/auth-invalidation.store';
import { DashboardUserRepository } from './data-access/dashboard-user.repository';
import { internalRouter } from './entry-points/http/internal.routes';
import { createGatewayDataSource } from './data-access/data-source';
import { KeyUsageStore } from './data-access/key-usage.store';
import { PasswordResetRepository } from './data-access/password-reset.repository';
import { SessionStore } from './data-access/session.store';
import { SmtpMailer } from './data-access/smtp.mailer';
import { SignInThrottleStore } from './data-access/sign-in-throttle.store';
import { TenantRepository } from './data-access/tenant.repository';
import { WindowCounterStore } from './data-access/window-counter.store';
import { ApiKeyAuthenticator } from './domain/api-keys/authenticate-api-key.use-case';
import type { GatewayDeps } from './domain/gateway-deps';
import { parsePlans } from './domain/rate-limits/plans';
import { RateLimiter } from './domain/rate-limits/rate-limiter';
import { adminRouter } from './entry-points/http/admin.routes';
import { dashboardAuthRouter } from './entry-points/http/dashboard-auth.routes';
import { dashboardStaticRouter } from './entry-points/http/dashboard-static.routes';
import { dashboardUserAdminRoutes } from './entry-points/http/dashboard-users.admin-routes';
import { docsRouter } from './entry-points/http/docs.routes';
import { createForwarder, type Forwarder } from './entry-points/http/forward';
import { healthRouter } from './entry-points/http/health.routes';
import { publicApiRouter, upstreamWebhookRouter } from './entry-points/http/public-api.routes';
import { tenantApiKeyRoutes } from './entry-points/http/tenant-api-keys.routes';
import { teamRoutes } from './entry-points/http/team.routes';
import { InboxEventStore } from './data-access/inbox-event.store';
import { InboxHub } from './domain/inbox/inbox-hub';
import { registerInboxEventConsumer } from './entry-points/consumers/inbox-events.consumer';
import { inboxEventRoutes } from './entry-points/http/inbox-events.routes';

export interface Gateway extends ServiceRuntime {
  dataSource: DataSource;
  redis: RedisClient;
  /** The browsers' inbox streams of this replica; `close()` ends them (the first step of the gateway's close). */
  inboxHub: InboxHub;
}

/** Wires the gateway: repositories and stores, authenticator, rate limiter, forwarder and the routers. */
export async function createGateway(config: GatewayConfig): Promise<Gateway> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const plans = parsePlans(config.RATE_LIMIT_PLANS, config.DEFAULT_PLAN);
  const dataSource = createGatewayDataSource(config);
  await dataSource.initialize();
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX, logger });
  const keys = new ApiKeyRepository(dataSource);
  // Key and plan changes reach every replica over pub/sub (a subscriber needs its own connection).
  const invalidation = new AuthInvalidationChannel(
    redis,
    createRedis({ url: config.REDIS_URL, logger }),
    `${config.REDIS_PREFIX}gw:auth-changed`,
    logger,
  );
  // The operator's dead-letter commands reach the broker directly; the connection opens on first use.
  const deadLetters = new DeadLetterQueues({ url: config.AMQP_URL, prefix: config.AMQP_PREFIX, logger });
  const mailer =
    config.SMTP_URL === undefined ? undefined : new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  const auditLog = new AuditLogRepository(dataSource, logger);
  const deps: GatewayDeps = {
    tenants: new TenantRepository(dataSource),
    keys,
    keyUsage: new KeyUsageStore(redis, logger),
    invalidation,
    users: new DashboardUserRepository(dataSource),
    sessions: new SessionStore(
      redis,
      config.SESSION_IDLE_SECONDS * 1000,
      config.SESSION_ABSOLUTE_SECONDS * 1000,
    ),
    throttle: new SignInThrottleStore(redis, {
      perEmail: config.SIGNIN_MAX_PER_EMAIL,
      perIp: config.SIGNIN_MAX_PER_IP,
      windowSeconds: config.SIGNIN_WINDOW_SECONDS,
    }),
    resets: new PasswordResetRepository(dataSource),
    resetThrottle: new SignInThrottleStore(
      redis,
      {
        perEmail: config.PASSWORD_RESET_MAX_PER_EMAIL,
        perIp: config.PASSWORD_RESET_MAX_PER_IP,
        windowSeconds: config.PASSWORD_RESET_WINDOW_SECONDS,
      },
      'reset',
    ),
    mailer,
    deadLetters,
    health: { database: () => pingDatabase(dataSource), cache: () => redis.ping() },
    plans,
    defaultPlan: config.DEFAULT_PLAN,
    authenticator: new ApiKeyAuthenticator(keys, invalidation, config.AUTH_CACHE_TTL_MS),
    rateLimiter: new RateLimiter(new WindowCounterStore(redis), logger),
    auditLog,
  };
  // The inbox's events come from messaging over the broker; the browsers' streams read them from Redis.
  const metrics = serviceMetrics('gateway');
  const amqp = amqpClientFor(config, logger, metrics);
  const inboxEvents = new InboxEventStore(
    redis,
    createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX, logger, blocking: true }),
    {
      keyPrefix: config.REDIS_PREFIX,
      maxLength: config.INBOX_STREAM_MAXLEN,
      dedupeSeconds: config.INBOX_DEDUPE_SECONDS,
      replicaId: newUlid(),
    },
  );
  const inboxHub = new InboxHub(inboxEvents, logger);
  metrics.sampledGauge(
    { name: 'bm_inbox_streams', help: "Browsers' inbox event streams open on this gateway replica" },
    () => Promise.resolve([{ labels: {}, value: inboxHub.connections }]),
  );
  const forward: Forwarder = createForwarder(config.INTERNAL_TOKEN, config.FORWARD_TIMEOUT_MS, logger);
  const targets = {
    messaging: config.MESSAGING_URL,
    campaign: config.CAMPAIGN_URL,
    dispatcher: config.DISPATCHER_URL,
    ingress: config.INGRESS_URL,
  };
  const bodyLimit = config.ADMIN_BODY_LIMIT;
  const publicUrl = config.PUBLIC_URL;

  const app = createHttpApp({
    logger,
    parseJson: false,
    routes: (a) => {
      // The public API first: it is nearly every request, and no other router answers under /api/v1, so its
      // requests need not walk past the docs, health, dashboard and admin routes to reach it.
      a.use(
        publicApiRouter(deps, forward, targets, [
          ...inboxEventRoutes({ ...deps, inboxHub, logger, heartbeatMs: config.INBOX_HEARTBEAT_MS }),
          ...tenantApiKeyRoutes({ ...deps, bodyLimit }),
          ...teamRoutes({ ...deps, logger, publicUrl: config.PUBLIC_URL, bodyLimit }),
        ]),
      );
      a.use(internalRouter(deps, config.INTERNAL_TOKEN));
      a.use(docsRouter());
      a.use(healthRouter(deps, config.HEALTH_TIMEOUT_MS));
      a.use(upstreamWebhookRouter(forward, targets));
      a.use(dashboardAuthRouter({ ...deps, logger, bodyLimit, publicUrl }));
      a.use(dashboardStaticRouter(config.DASHBOARD_DIR, logger));
      a.use(
        '/admin/v1',
        adminRouter(
          { ...deps, adminToken: config.ADMIN_TOKEN, forward, targets, bodyLimit },
          dashboardUserAdminRoutes({ ...deps, logger, publicUrl, bodyLimit }),
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
    metrics,
    dataSource,
    redis,
    amqp,
    port: config.GATEWAY_PORT,
    http: { app },
    consumers: () => registerInboxEventConsumer(amqp, { inboxEvents }),
    // The audit entries of the last answers are written once the HTTP server has closed.
    drain: [auditLog],
    streams: [{ name: 'inbox streams', close: () => inboxHub.close() }],
    connections: [
      { name: 'forwarder', close: () => forward.close() },
      { name: 'dead letters', close: () => deadLetters.close() },
      { name: 'auth invalidation', close: () => invalidation.close() },
      ...(mailer ? [{ name: 'mailer', close: () => mailer.close() }] : []),
    ],
  });
  return { ...runtime, dataSource, redis, inboxHub };
}
