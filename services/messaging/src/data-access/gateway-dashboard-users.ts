import { GATEWAY_ENDPOINTS } from '@bm/contracts';
import { AppError, type InternalClient } from '@bm/platform';
import type { DashboardUserDirectory } from '../domain/ports/dashboard-users.port';

/** The tenant's dashboard users, asked of the gateway that keeps them; an unreachable gateway is a 503. */
export class GatewayDashboardUsers implements DashboardUserDirectory {
  constructor(private readonly gateway: InternalClient) {}

  async isTenantUser(tenantId: number, userId: string): Promise<boolean> {
    try {
      await this.gateway.call(GATEWAY_ENDPOINTS.dashboardUser, {
        tenantId,
        params: { tenantId: String(tenantId), userId },
      });
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return false;
      throw err;
    }
  }
}
