const WINDOW_MS = 1_000;

/**
 * Takes one slot in the number's sliding one-second window; false when the window already holds `mps`
 * sends. An mps of 0 means uncapped.
 */
export function takeThroughputSlot(
  windows: Map<string, number[]>,
  phoneNumberId: string,
  mps: number,
): boolean {
  if (mps <= 0) return true;
  const now = Date.now();
  const times = windows.get(phoneNumberId) ?? [];
  let expired = 0;
  while (expired < times.length && times[expired] <= now - WINDOW_MS) expired += 1;
  if (expired > 0) times.splice(0, expired);
  if (times.length >= mps) {
    windows.set(phoneNumberId, times);
    return false;
  }
  times.push(now);
  windows.set(phoneNumberId, times);
  return true;
}
