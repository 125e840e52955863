import type { RedisClient } from '@bm/platform';
import type { SlotSchedule } from '../domain/ports/slot-schedule.port';

/*
 * Paced slots (GCRA) per sending number, in Redis so every worker replica shares one schedule. KEYS[1] holds
 * the theoretical arrival time (TAT, ms on Redis' clock) of the next free slot. A call asks for ARGV[1] slots
 * spaced ARGV[2] ms apart, none later than ARGV[3] ms ahead; it answers how many it granted and how far
 * ahead (ms) the first of them is. Redis' own clock, so replicas with skewed clocks still share one schedule.
 */
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local room = 0
if tat <= now + tonumber(ARGV[3]) then room = math.floor((now + tonumber(ARGV[3]) - tat) / interval) + 1 end
local grant = math.max(0, math.min(tonumber(ARGV[1]), room))
if grant > 0 then
  redis.call('SET', KEYS[1], tostring(tat + grant * interval), 'PX', 60000)
end
return {grant, tostring(tat - now)}
`;

/** The send slots of each number in Redis (GCRA), so every worker replica paces by one schedule. */
export class RedisSlotSchedule implements SlotSchedule {
  constructor(private readonly redis: RedisClient) {}

  async take(
    channelAccountId: string,
    count: number,
    intervalMs: number,
    horizonMs: number,
  ): Promise<{ grant: number; ahead: number }> {
    const [grant, ahead] = (await this.redis.eval(
      SCRIPT,
      1,
      `tp:${channelAccountId}`,
      count,
      intervalMs,
      horizonMs,
    )) as [number, string];
    return { grant, ahead: Number(ahead) };
  }
}
