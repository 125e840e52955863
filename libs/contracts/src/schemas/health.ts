export interface HealthChecks {
  app: boolean;
  database: boolean;
  cache: boolean;
}

export interface HealthReport {
  status: 'healthy' | 'degraded';
  checks: HealthChecks;
  timestamp: string;
}
