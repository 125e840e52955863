import type { RedisClient } from '@bm/platform';
import type { WindowCounter } from '../domain/gateway-ports';

// One round trip: count the hit in the key's fixed window and read the window's remaining time.
const SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

/** Fixed-window counters in Redis (a loaded script, run by its hash), shared by every gateway replica. */
export class WindowCounterStore implements WindowCounter {
  private scriptSha?: string;

  constructor(private readonly redis: RedisClient) {}

  ready(): boolean {
    return this.redis.status === 'ready';
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; msLeft: number }> {
    const [count, msLeft] = await this.evaluate(key, windowMs);
    return { count, msLeft };
  }

  private async evaluate(key: string, windowMs: number): Promise<[number, number]> {
    if (this.scriptSha) {
      try {
        return (await this.redis.evalsha(this.scriptSha, 1, key, windowMs)) as [number, number];
      } catch (err) {
        if (!(err as Error).message.includes('NOSCRIPT')) throw err;
      }
    }
    this.scriptSha = (await this.redis.script('LOAD', SCRIPT)) as string;
    return (await this.redis.evalsha(this.scriptSha, 1, key, windowMs)) as [number, number];
  }
}
