import type { ApiKeyAuthenticator } from './api-keys/authenticate-api-key.use-case';
import type { ApiKeys, KeyUsage } from './ports/api-keys.port';
import type { AuditLog } from './ports/audit-log.port';
import type { AuthInvalidation } from './ports/auth-invalidation.port';
import type { DashboardUsers } from './ports/dashboard-users.port';
import type { DeadLetters } from './ports/dead-letters.port';
import type { HealthProbes } from './ports/health.port';
import type { Mailer } from './ports/mailer.port';
import type { PasswordResets } from './ports/password-resets.port';
import type { Sessions, SignInThrottle } from './ports/sessions.port';
import type { Tenants } from './ports/tenants.port';
import type { Plan } from './rate-limits/plans';
import type { RateLimiter } from './rate-limits/rate-limiter';

/**
 * Everything the gateway's use cases and entry points may be given, built once in gateway.ts; each takes only
 * the part it uses (`Pick<GatewayDeps, …>`).
 */
export interface GatewayDeps {
  tenants: Tenants;
  keys: ApiKeys;
  keyUsage: KeyUsage;
  invalidation: AuthInvalidation;
  users: DashboardUsers;
  sessions: Sessions;
  throttle: SignInThrottle;
  resets: PasswordResets;
  /** Password-reset requests, counted as sign-ins are. */
  resetThrottle: SignInThrottle;
  /** Undefined when SMTP_URL is unset: no mail is sent. */
  mailer: Mailer | undefined;
  deadLetters: DeadLetters;
  health: HealthProbes;
  /** The rate-limit plans by name, and the one a tenant gets when none is named. */
  plans: Map<string, Plan>;
  defaultPlan: string;
  authenticator: ApiKeyAuthenticator;
  rateLimiter: RateLimiter;
  auditLog: AuditLog;
}
