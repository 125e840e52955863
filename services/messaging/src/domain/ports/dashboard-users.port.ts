/** The tenant's dashboard users, kept by the gateway. */
export interface DashboardUserDirectory {
  /** Whether the user exists and belongs to the tenant. */
  isTenantUser(tenantId: number, userId: string): Promise<boolean>;
}
