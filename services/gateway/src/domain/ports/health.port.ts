/** The gateway's dependencies as the health check sees them: each probe resolves while it answers. */
export interface HealthProbes {
  database(): Promise<unknown>;
  cache(): Promise<unknown>;
}
