import { createDataSource } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { GatewayConfig } from '../config';
import { ApiKeyEntity } from './api-key.entity';
import { TenantEntity } from './tenant.entity';
import { CreateTenantsAndApiKeys1763800000000 } from './migrations/1763800000000-create-tenants-and-api-keys';
import { CreateDashboardUsers1764900000000 } from './migrations/1764900000000-create-dashboard-users';
import { AddRolesAndAuditLog1766710000000 } from './migrations/1766710000000-add-roles-and-audit-log';
import { CreatePasswordResets1766720000000 } from './migrations/1766720000000-create-password-resets';

export const GATEWAY_SCHEMA = 'gateway';

/** The gateway's data source: schema `gateway`, its own migrations table. */
export function createGatewayDataSource(config: GatewayConfig): DataSource {
  return createDataSource({
    url: config.DATABASE_URL,
    schema: GATEWAY_SCHEMA,
    entities: [TenantEntity, ApiKeyEntity],
    migrations: [
      CreateTenantsAndApiKeys1763800000000,
      CreateDashboardUsers1764900000000,
      AddRolesAndAuditLog1766710000000,
      CreatePasswordResets1766720000000,
    ],
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'gateway',
  });
}
