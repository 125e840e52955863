import type { SlotSchedule } from '../ports/slot-schedule.port';

/** How far ahead slots are handed out in one round trip. */
const HORIZON_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Messages per second per sending number, paced evenly rather than in bursts: any one-second window, however
 * it is placed, holds at most the number's rate, so an upstream that counts with a sliding window (as the
 * upstream network and the sandbox do) never answers 130429. Sends are spaced for `safety` of the rate (0.96:
 * 4% of slack absorbs the jitter between leaving here and arriving there).
 *
 * A slot can only come late here (a busy event loop: a large batch of campaign sends being written), and slots
 * that all come due at once would leave together: a window then holds the sends of its second plus those of
 * the late stretch before it. So a slot later than half the slack (20 ms at 0.96) is given up, unused, and its
 * message waits for a new one: a window then never holds more than its second's slots and 20 ms more, and the
 * other half of the slack is left for the way to the upstream. Throughput is lost only while the loop stalls.
 *
 * A caller with work to do before a send (a committed write) asks for its slots `leadMs` early: each comes with
 * the instant it is due, and the caller sends then, or gives the slot up if it is past `latenessAllowedMs` by then
 * (the write took too long), so the work's own latency never shortens the spacing the upstream sees.
 */
export class ThroughputLimiter {
  constructor(
    private readonly slots: SlotSchedule,
    private readonly safety = 0.96,
  ) {}

  /** How late past its due instant a slot may still be used (half the slack); a later one is given up. */
  get latenessAllowedMs(): number {
    return (1000 * (1 - this.safety)) / 2;
  }

  /**
   * Calls `onGranted(n, dueAt)` as slots come due (`soon.leadMs` before, when asked; `dueAt` holds the instant each
   * of the `n` is due, on this process' clock), until `count` have been granted or the next slot is more than
   * `maxWaitMs` away from the start (a slow number must not hold claimed messages for long); answers how many
   * were granted. `soon.onSchedule` hears, after each ask for slots and before they are used, how many of the
   * messages not yet granted have a slot due within `soon.withinMs` (the rest wait longer, or got none; slots
   * given up as late are asked for again, so a message due soon at first may wait longer later).
   */
  async acquire(
    channelAccountId: string,
    perSecond: number,
    count: number,
    onGranted: (n: number, dueAt: number[]) => void,
    maxWaitMs = 10_000,
    soon?: { withinMs: number; onSchedule: (dueSoon: number) => void; leadMs?: number },
  ): Promise<number> {
    const interval = 1000 / (perSecond * this.safety);
    const latestMs = this.latenessAllowedMs;
    const leadMs = soon?.leadMs ?? 0;
    const started = Date.now();
    let granted = 0;
    while (granted < count) {
      // Never a slot further off than the wait allows.
      const horizon = Math.min(HORIZON_MS, Math.max(0, started + maxWaitMs - Date.now()));
      const { grant, firstAt } = await this.slots.take(channelAccountId, count - granted, interval, horizon);
      const asked = Date.now();
      const ahead = firstAt - asked;
      if (soon) {
        // Before this grant's slots are used: how many of them come due within `withinMs` from now.
        const dueSoon = grant === 0 ? 0 : Math.floor((soon.withinMs - ahead) / interval) + 1;
        soon.onSchedule(Math.max(0, Math.min(grant, dueSoon)));
      }
      if (grant === 0) {
        const wait = firstAt - horizon - asked;
        if (asked + wait - started > maxWaitMs) return granted;
        await sleep(Math.max(1, wait));
        continue;
      }
      // Every slot that is due goes at once, then a sleep until the next: timers fire a millisecond or more
      // late, so one sleep per slot would fall behind at high rates. Slots due longer ago than `latestMs` are
      // given up (see above); the loop asks for new ones.
      let used = 0;
      for (let i = 0; i < grant;) {
        const now = Date.now();
        let due = 0;
        while (i + due < grant && firstAt + (i + due) * interval <= now + leadMs + 1) due += 1;
        if (due === 0) {
          await sleep(firstAt + i * interval - leadMs - now);
          continue;
        }
        let stale = 0;
        while (stale < due && firstAt + (i + stale) * interval < now - latestMs) stale += 1;
        if (due > stale) {
          const dueAt = Array.from({ length: due - stale }, (_x, k) => firstAt + (i + stale + k) * interval);
          onGranted(due - stale, dueAt);
        }
        used += due - stale;
        i += due;
      }
      granted += used;
    }
    return granted;
  }
}
