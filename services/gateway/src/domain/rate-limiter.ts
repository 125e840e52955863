import type { Logger, RedisClient } from '@bm/platform';
import type { Plan } from './plans';

export interface RateDecision {
  allowed: boolean;
  limit: number | null;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** The auth epoch read in the same round trip; undefined when Redis could not be asked. */
  authEpoch?: string;
}

// One round trip: count the request in the tenant's fixed window, read the window's remaining time and the
// auth epoch (bumped on every revocation or plan change so every replica drops its cached keys at once).
const SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
local epoch = redis.call('GET', KEYS[2]) or '0'
return {count, ttl, epoch}
`;

export const AUTH_EPOCH_KEY = 'gw:auth-epoch';

/** Per-tenant fixed-window limits held in Redis, so every gateway replica counts against the same budget. */
export class RateLimiter {
  private scriptSha?: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly logger: Logger,
  ) {}

  async hit(tenantId: number, plan: Plan): Promise<RateDecision> {
    const windowMs = plan.windowSeconds * 1000;
    if (this.redis.status !== 'ready') return this.failOpen(plan);
    try {
      const [count, ttl, epoch] = await this.evaluate([`gw:rl:${tenantId}`, AUTH_EPOCH_KEY], windowMs);
      const resetSeconds = Math.max(1, Math.ceil((ttl > 0 ? ttl : windowMs) / 1000));
      if (plan.limit === null) {
        return { allowed: true, limit: null, remaining: 0, resetSeconds, authEpoch: epoch };
      }
      return {
        allowed: count <= plan.limit,
        limit: plan.limit,
        remaining: Math.max(0, plan.limit - count),
        resetSeconds,
        authEpoch: epoch,
      };
    } catch (err) {
      this.logger.warn('rate limiter unavailable, allowing request', { error: (err as Error).message });
      return this.failOpen(plan);
    }
  }

  /** The current auth epoch, or undefined while Redis is unreachable (then nothing is cached). */
  async readAuthEpoch(): Promise<string | undefined> {
    if (this.redis.status !== 'ready') return undefined;
    try {
      return (await this.redis.get(AUTH_EPOCH_KEY)) ?? '0';
    } catch {
      return undefined;
    }
  }

  /** Bumps the auth epoch so cached credentials are re-read everywhere. */
  async bumpAuthEpoch(): Promise<void> {
    await this.redis.incr(AUTH_EPOCH_KEY);
  }

  private async evaluate(keys: string[], windowMs: number): Promise<[number, number, string]> {
    if (this.scriptSha) {
      try {
        return (await this.redis.evalsha(this.scriptSha, keys.length, ...keys, windowMs)) as [
          number,
          number,
          string,
        ];
      } catch (err) {
        if (!(err as Error).message.includes('NOSCRIPT')) throw err;
      }
    }
    this.scriptSha = (await this.redis.script('LOAD', SCRIPT)) as string;
    return (await this.redis.evalsha(this.scriptSha, keys.length, ...keys, windowMs)) as [
      number,
      number,
      string,
    ];
  }

  // A Redis outage must not take the whole API down: requests pass unmetered and health reports cache:false.
  private failOpen(plan: Plan): RateDecision {
    return {
      allowed: true,
      limit: plan.limit,
      remaining: plan.limit ?? 0,
      resetSeconds: plan.windowSeconds,
    };
  }
}
