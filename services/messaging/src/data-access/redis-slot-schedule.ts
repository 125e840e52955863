import type { RedisClient } from '@bm/platform';
import type { SlotSchedule } from '../domain/ports/slot-schedule.port';

/*
 * Paced slots (GCRA) per sending number, in Redis so every worker replica shares one schedule. KEYS[1] holds
 * the theoretical arrival time (TAT, ms on Redis' clock) of the next free slot. A call asks for ARGV[1] slots
 * spaced ARGV[2] ms apart, none later than ARGV[3] ms ahead; it answers how many it granted, the instant of the
 * first and Redis' own now (both in ms on Redis' clock, as strings). Redis' own clock, so replicas with skewed
 * clocks still share one schedule.
 */
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local room = 0
if tat <= now + tonumber(ARGV[3]) then room = math.floor((now + tonumber(ARGV[3]) - tat) / interval) + 1 end
local grant = math.max(0, math.min(tonumber(ARGV[1]), room))
if grant > 0 then
  redis.call('SET', KEYS[1], string.format('%.3f', tat + grant * interval), 'PX', 60000)
end
return {grant, string.format('%.3f', tat), string.format('%.3f', now)}
`;

/** How fast the two clocks may drift apart (100 ppm, far beyond a synchronised clock's). */
const DRIFT_PER_MS = 1e-4;

/**
 * The send slots of each number in Redis (GCRA), so every worker replica paces by one schedule.
 *
 * Redis' instants are turned into this process' clock by the offset between the two, bounded by every call:
 * Redis read its clock after the call left and before the answer came back, so the offset lies within that
 * round trip. The bounds of all calls are intersected (widened for drift as they age), so the offset is known to
 * within the quickest round trip seen, not the last one: an answer that comes back late on a busy machine does not
 * move this replica's slots later than another's, which would crowd the sends the upstream sees.
 */
export class RedisSlotSchedule implements SlotSchedule {
  private low = -Infinity;
  private high = Infinity;
  private boundedAt = 0;

  constructor(private readonly redis: RedisClient) {}

  async take(
    channelAccountId: string,
    count: number,
    intervalMs: number,
    horizonMs: number,
  ): Promise<{ grant: number; firstAt: number }> {
    const sent = Date.now();
    const [grant, tat, now] = (await this.redis.eval(
      SCRIPT,
      1,
      `tp:${channelAccountId}`,
      count,
      intervalMs,
      horizonMs,
    )) as [number, string, string];
    // Date.now() counts whole ms: the answer came back before the end of the ms it reads.
    const received = Date.now() + 1;
    return { grant, firstAt: Number(tat) + this.offset(sent, received, Number(now)) };
  }

  /** This clock minus Redis', from the call that left at `sent`, came back at `received` and read `redisNow`. */
  private offset(sent: number, received: number, redisNow: number): number {
    const widen = (received - this.boundedAt) * DRIFT_PER_MS;
    let low = Math.max(this.low - widen, sent - redisNow);
    let high = Math.min(this.high + widen, received - redisNow);
    // Bounds that no longer meet: a clock was stepped. Start again from this call.
    if (low > high) [low, high] = [sent - redisNow, received - redisNow];
    [this.low, this.high, this.boundedAt] = [low, high, received];
    return (low + high) / 2;
  }
}
