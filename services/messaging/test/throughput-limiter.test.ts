import { createRedis, type RedisClient } from '@bm/platform';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';
import { RedisSlotSchedule } from '../src/data-access/redis-slot-schedule';
import { ThroughputLimiter } from '../src/domain/sending/throughput-limiter';

/** Blocks the event loop, as a large batch of campaign sends being written does. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

/** The most sends any one-second window holds, however it is placed. */
function busiestSecond(times: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while (times[i] - times[j] >= 1000) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('the per-number throughput limiter (GCRA slots in Redis)', () => {
  let redis: RedisClient;
  beforeAll(() => {
    const env = testEnv();
    redis = createRedis({ url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix: env.REDIS_PREFIX });
  });
  afterAll(() => redis.disconnect());

  /** Sends `count` through the limiter at `perSecond`, stalling the loop once; the instants they left. */
  async function paced(perSecond: number, count: number, stallAfter: number, stallMs: number) {
    const limiter = new ThroughputLimiter(new RedisSlotSchedule(redis), 0.96);
    const left: number[] = [];
    const account = `acc-${uniqueSuffix()}`;
    let sent = 0;
    while (sent < count) {
      sent += await limiter.acquire(account, perSecond, count - sent, (n) => {
        for (let k = 0; k < n; k += 1) left.push(Date.now());
        if (left.length >= stallAfter && left.length - n < stallAfter) busy(stallMs);
      });
    }
    return left;
  }

  it('when the loop stalls for 150 ms, then the late slots are given up instead of leaving together', async () => {
    const perSecond = 50;
    const left = await paced(perSecond, 120, 20, 150);
    expect(left).toHaveLength(120);
    // 150 ms of slots (about 7) came due during the stall: at most the 20 ms allowance of them (one) left with
    // the first slot after it.
    const together = Math.max(...left.map((t) => left.filter((u) => u === t).length));
    expect(together).toBeLessThanOrEqual(2);
    expect(busiestSecond(left)).toBeLessThanOrEqual(perSecond);
  });

  it('when nothing stalls, then the sends keep 96% of the rate', async () => {
    const perSecond = 100;
    const left = await paced(perSecond, 200, Infinity, 0);
    const rate = (left.length - 1) / ((left[left.length - 1] - left[0]) / 1000);
    expect(rate).toBeGreaterThan(perSecond * 0.9);
    expect(rate).toBeLessThanOrEqual(perSecond);
    expect(busiestSecond(left)).toBeLessThanOrEqual(perSecond);
  });
});
