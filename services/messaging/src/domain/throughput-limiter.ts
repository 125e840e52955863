import type { RedisClient } from '@bm/platform';

// Takes up to ARGV[1] tokens of this second's budget ARGV[2]; answers how many were granted.
const SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.max(0, math.min(tonumber(ARGV[1]), tonumber(ARGV[2]) - used))
if grant > 0 then
  redis.call('INCRBY', KEYS[1], grant)
  redis.call('PEXPIRE', KEYS[1], 2000)
end
return grant
`;

/**
 * Messages per second per sending number, counted in Redis so every worker replica shares one budget.
 * A batch asks for all its tokens in one round trip and waits for the next second for what is left.
 */
export class ThroughputLimiter {
  constructor(private readonly redis: RedisClient) {}

  /** Calls `onGranted(n)` as tokens are granted until `count` have been, waiting out spent seconds. */
  async acquire(
    channelAccountId: string,
    perSecond: number,
    count: number,
    onGranted: (n: number) => void,
  ): Promise<void> {
    let left = count;
    while (left > 0) {
      const now = Date.now();
      const second = Math.floor(now / 1000);
      const granted = Number(
        await this.redis.eval(SCRIPT, 1, `tp:${channelAccountId}:${second}`, left, perSecond),
      );
      if (granted > 0) {
        left -= granted;
        onGranted(granted);
      }
      if (left > 0)
        await new Promise((r) => setTimeout(r, (second + 1) * 1000 - now + Math.floor(Math.random() * 20)));
    }
  }
}
