/**
 * Part sizes of a list of `requested` recipients when `available` fit now: one part when all fit; else the
 * first part takes what fits now (a whole day's limit when nothing does: it waits, throttled) and each later
 * part a day's limit.
 */
export function partSizes(requested: number, available: number, dailyLimit: number | null): number[] {
  if (dailyLimit === null || requested <= available) return [requested];
  const sizes: number[] = [];
  let left = requested;
  let next = available > 0 ? available : dailyLimit;
  while (left > 0) {
    const size = Math.min(next, left);
    sizes.push(size);
    left -= size;
    next = dailyLimit;
  }
  return sizes;
}

/** When part `n` (1-based) is planned to start: the first at `scheduledAt` (null: now), each later one a day on. */
export function plannedStart(
  scheduledAt: Date | null,
  n: number,
  intervalMs: number,
  now: number,
): Date | null {
  if (n === 1) return scheduledAt;
  return new Date((scheduledAt?.getTime() ?? now) + (n - 1) * intervalMs);
}
