/** Resolves true when the check finishes within the timeout, false on error or timeout. */
export async function checkWithin(check: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

let draining = false;

/**
 * Marks the process as shutting down: readiness answers 503 from now on, so a load balancer or Kubernetes stops
 * sending new work while what is in flight drains. Called first by `handleShutdown`.
 */
export function markDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}
