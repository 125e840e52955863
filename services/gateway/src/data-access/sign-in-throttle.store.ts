import { createHash } from 'node:crypto';
import type { RedisClient } from '@bm/platform';
import type { SignInThrottle, ThrottleDecision } from '../domain/ports/sessions.port';

export interface ThrottleLimits {
  perEmail: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Counts sign-in attempts per email and per client IP in fixed windows held in Redis (shared by every replica).
 * Attempts are counted before the password is checked, so a burst of parallel guesses is counted in full; a
 * successful sign-in clears its email's count.
 */
export class SignInThrottleStore implements SignInThrottle {
  constructor(
    private readonly redis: RedisClient,
    private readonly limits: ThrottleLimits,
    /** What is counted, in the keys: `signin`, or `reset` for password-reset requests. */
    private readonly name = 'signin',
  ) {}

  async attempt(email: string, ip: string): Promise<ThrottleDecision> {
    const keys = [this.emailKey(email), `gw:${this.name}:ip:${ip}`];
    const windowMs = this.limits.windowSeconds * 1000;
    const pipeline = this.redis.multi();
    for (const key of keys) pipeline.incr(key).pexpire(key, windowMs, 'NX').pttl(key);
    const results = (await pipeline.exec()) ?? [];
    const counts = [Number(results[0]?.[1]), Number(results[3]?.[1])];
    const ttls = [Number(results[2]?.[1]), Number(results[5]?.[1])];
    const over = [counts[0] > this.limits.perEmail, counts[1] > this.limits.perIp];
    if (!over[0] && !over[1]) return undefined;
    const wait = Math.max(...ttls.filter((_, i) => over[i]));
    return Math.max(1, Math.ceil(wait / 1000));
  }

  async succeeded(email: string): Promise<void> {
    await this.redis.del(this.emailKey(email));
  }

  private emailKey(email: string): string {
    return `gw:${this.name}:email:${createHash('sha256').update(email).digest('hex')}`;
  }
}
