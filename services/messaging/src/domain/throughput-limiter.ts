import type { RedisClient } from '@bm/platform';

const SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], 2000) end
return n
`;

/**
 * Messages per second per sending number, counted in Redis so every worker replica shares one budget.
 * `acquire` waits for the next second when this one is spent.
 */
export class ThroughputLimiter {
  constructor(private readonly redis: RedisClient) {}

  async acquire(channelAccountId: string, perSecond: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      const second = Math.floor(now / 1000);
      const count = Number(await this.redis.eval(SCRIPT, 1, `tp:${channelAccountId}:${second}`));
      if (count <= perSecond) return;
      await new Promise((r) => setTimeout(r, (second + 1) * 1000 - now + Math.floor(Math.random() * 20)));
    }
  }
}
