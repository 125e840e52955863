import type { Logger, RedisClient } from '@bm/platform';
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

// One round trip for every request of a batch: count each in its tenant's fixed window (a key may repeat: each
// occurrence is its own request) and read the window's remaining time. Replies are count, ttl pairs in order.
const SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
  out[2 * i - 1] = count
  out[2 * i] = redis.call('PTTL', key)
end
return out
`;

interface PendingHit {
  key: string;
  windowMs: number;
  resolve: (counted: [number, number]) => void;
  reject: (err: Error) => void;
}

/**
 * Per-tenant fixed-window limits held in Redis, so every gateway replica counts against the same budget.
 *
 * The requests that arrive in one turn of the event loop are counted together, in one script call, after the
 * turn's I/O (setImmediate): under load that is one Redis write and one read for many requests instead of one
 * each, the largest share of the gateway's CPU per request after its own sockets. Every request is still counted
 * in Redis before it is answered, so the budget stays exact across replicas.
 */
export class RateLimiter {
  private scriptSha?: string;
  private pending: PendingHit[] = [];

  constructor(
    private readonly redis: RedisClient,
    private readonly logger: Logger,
  ) {}

  async hit(tenantId: number, plan: Plan): Promise<RateDecision> {
    // The unlimited plan counts nothing, so it costs no round trip.
    if (plan.limit === null) return this.unmetered(plan);
    const windowMs = plan.windowSeconds * 1000;
    if (this.redis.status !== 'ready') return this.failOpen(plan);
    try {
      const [count, ttl] = await this.count(`gw:rl:${tenantId}`, windowMs);
      return {
        allowed: count <= plan.limit,
        limit: plan.limit,
        remaining: Math.max(0, plan.limit - count),
        resetSeconds: Math.max(1, Math.ceil((ttl > 0 ? ttl : windowMs) / 1000)),
      };
    } catch {
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

  private count(key: string, windowMs: number): Promise<[number, number]> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => void this.flush());
      this.pending.push({ key, windowMs, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const replies = await this.evaluate(
        batch.map((h) => h.key),
        batch.map((h) => h.windowMs),
      );
      batch.forEach((h, i) => h.resolve([replies[2 * i], replies[2 * i + 1]]));
    } catch (err) {
      // Logged once for the batch; each of its requests passes unmetered.
      this.logger.warn('rate limiter unavailable, allowing request', {
        error: (err as Error).message,
        requests: batch.length,
      });
      for (const h of batch) h.reject(err as Error);
    }
  }

  private async evaluate(keys: string[], windowsMs: number[]): Promise<number[]> {
    if (this.scriptSha) {
      try {
        return (await this.redis.evalsha(this.scriptSha, keys.length, ...keys, ...windowsMs)) as number[];
      } catch (err) {
        if (!(err as Error).message.includes('NOSCRIPT')) throw err;
      }
    }
    this.scriptSha = (await this.redis.script('LOAD', SCRIPT)) as string;
    return (await this.redis.evalsha(this.scriptSha, keys.length, ...keys, ...windowsMs)) as number[];
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
