/**
 * Each sending number's schedule of send slots, shared by every worker replica: a slot handed out is never
 * handed out again, whichever replica asks next.
 */
export interface SlotSchedule {
  /**
   * Takes up to `count` slots `intervalMs` apart, the first at the number's next free slot and none more than
   * `horizonMs` from now: how many were granted, and when the first is due, in ms on this process' clock (the
   * instant the shared schedule gives it, whatever the time the answer took to come back).
   */
  take(
    channelAccountId: string,
    count: number,
    intervalMs: number,
    horizonMs: number,
  ): Promise<{ grant: number; firstAt: number }>;
}
