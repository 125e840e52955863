import type { Logger } from '@bm/platform';
import type { WindowCounter } from '../ports/window-counter.port';
import type { Plan } from './plans';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * The budget the unlimited plan's answers state as X-RateLimit-Limit and -Remaining: one no client spends, never
 * counted down, so a client's usual logic (wait when Remaining reaches 0) works unchanged. The largest 32-bit
 * integer, so that every client's integer type holds it.
 */
export const UNLIMITED_BUDGET = 2_147_483_647;

/** Per-tenant fixed-window limits in a shared counter, so every gateway replica counts against the same budget. */
export class RateLimiter {
  constructor(
    private readonly counter: WindowCounter,
    private readonly logger: Logger,
  ) {}

  async hit(tenantId: number, plan: Plan): Promise<RateDecision> {
    // The unlimited plan counts nothing, so it costs no round trip.
    if (plan.limit === null) return this.unmetered(plan);
    const windowMs = plan.windowSeconds * 1000;
    if (!this.counter.ready()) return this.failOpen(plan);
    try {
      const { count, msLeft } = await this.counter.hit(`gw:rl:${tenantId}`, windowMs);
      return {
        allowed: count <= plan.limit,
        limit: plan.limit,
        remaining: Math.max(0, plan.limit - count),
        resetSeconds: Math.max(1, Math.ceil((msLeft > 0 ? msLeft : windowMs) / 1000)),
      };
    } catch (err) {
      this.logger.warn('rate limiter unavailable, allowing request', { error: (err as Error).message });
      return this.failOpen(plan);
    }
  }

  /**
   * The plan's budget, stated without counting: for an answer whose caller is not identified (a 401), so that
   * every answer under /api/v1 carries the rate headers and a client's logic needs no special case.
   */
  uncounted(plan: Plan): RateDecision {
    return this.failOpen(plan);
  }

  // A Redis outage must not take the whole API down: requests pass unmetered and health reports cache:false.
  private failOpen(plan: Plan): RateDecision {
    if (plan.limit === null) return this.unmetered(plan);
    return { allowed: true, limit: plan.limit, remaining: plan.limit, resetSeconds: plan.windowSeconds };
  }

  private unmetered(plan: Plan): RateDecision {
    return {
      allowed: true,
      limit: UNLIMITED_BUDGET,
      remaining: UNLIMITED_BUDGET,
      resetSeconds: plan.windowSeconds,
    };
  }
}
