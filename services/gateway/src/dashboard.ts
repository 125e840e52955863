import type { Express } from 'express';
import type { DataSource } from 'typeorm';
import type { Logger, RedisClient, RouteDefinition } from '@bm/platform';
import type { GatewayConfig } from './config';
import type { ApiKeyRepository } from './data-access/api-key.repository';
import { DashboardUserRepository } from './data-access/dashboard-user.repository';
import { KeyUsageStore } from './data-access/key-usage.store';
import { SessionStore } from './data-access/session.store';
import { SignInThrottleStore } from './data-access/sign-in-throttle.store';
import type { TenantRepository } from './data-access/tenant.repository';
import type { AuthInvalidation } from './domain/gateway-ports';
import type { CredentialDeps } from './entry-points/http/credential';
import { dashboardAuthRouter } from './entry-points/http/dashboard-auth.routes';
import { dashboardStaticRouter } from './entry-points/http/dashboard-static.routes';
import { dashboardUserAdminRoutes } from './entry-points/http/dashboard-users.admin-routes';
import { tenantApiKeyRoutes } from './entry-points/http/tenant-api-keys.routes';

export interface DashboardParts {
  /** What /api/v1 authentication needs to take a session cookie in place of a key. */
  credentials: Omit<CredentialDeps, 'authenticator'>;
  /** Operator routes under /admin/v1 (invites). */
  adminRoutes: RouteDefinition[];
  /** Routes under /api/v1 the gateway answers itself (the tenant's API keys). */
  tenantRoutes: RouteDefinition[];
  /** Mounts /api/auth/** and the static app under /dashboard. */
  mount(app: Express): void;
}

/** Wires what the dashboard needs of the gateway: users, invites, sessions, sign-in and the tenant's keys. */
export function createDashboardParts(
  config: GatewayConfig,
  deps: {
    redis: RedisClient;
    dataSource: DataSource;
    tenants: TenantRepository;
    keys: ApiKeyRepository;
    invalidation: AuthInvalidation;
    logger: Logger;
  },
): DashboardParts {
  const users = new DashboardUserRepository(deps.dataSource);
  const sessions = new SessionStore(
    deps.redis,
    config.SESSION_IDLE_SECONDS * 1000,
    config.SESSION_ABSOLUTE_SECONDS * 1000,
  );
  const usage = new KeyUsageStore(deps.redis, deps.logger);
  const throttle = new SignInThrottleStore(deps.redis, {
    perEmail: config.SIGNIN_MAX_PER_EMAIL,
    perIp: config.SIGNIN_MAX_PER_IP,
    windowSeconds: config.SIGNIN_WINDOW_SECONDS,
  });
  return {
    credentials: { dashboard: { sessions, tenants: deps.tenants }, keyUsage: usage },
    adminRoutes: dashboardUserAdminRoutes({
      tenants: deps.tenants,
      users,
      publicUrl: config.PUBLIC_URL,
      bodyLimit: config.ADMIN_BODY_LIMIT,
    }),
    tenantRoutes: tenantApiKeyRoutes({ ...deps, usage }),
    mount: (app) => {
      app.use(
        dashboardAuthRouter({
          users,
          sessions,
          tenants: deps.tenants,
          throttle,
          bodyLimit: config.ADMIN_BODY_LIMIT,
        }),
      );
      app.use(dashboardStaticRouter(config.DASHBOARD_DIR, deps.logger));
    },
  };
}
