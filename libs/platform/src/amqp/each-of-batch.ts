import { AppError } from '../errors';
import { isTransientFailure } from '../transient-failure';

/**
 * Applies each of a batch message's `count` items on its own (`apply(i)`, which checks the item with its own schema).
 * When some item is invalid or fails, the others are applied first and the batch then fails as a whole, to be
 * delivered again by the retry policy: its applied items change nothing the second time, so only the bad ones can
 * end in the dead-letter queue, with the batch around them. An outage stays an outage (the consumer waits it out).
 */
export async function eachOfBatch(
  what: string,
  count: number,
  apply: (index: number) => Promise<unknown>,
): Promise<void> {
  const results = await Promise.allSettled(
    // async: an item that fails validation is a rejected promise among the others, not a throw that stops them.
    Array.from({ length: count }, async (_, i) => apply(i)),
  );
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ index: i, reason: r.reason as unknown }] : [],
  );
  if (failures.length === 0) return;
  const transient = failures.find((f) => isTransientFailure(f.reason));
  if (transient) throw transient.reason;
  const first = failures[0];
  throw new AppError(
    (first.reason as { code?: string }).code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
    `${failures.length} of ${count} ${what} failed (item ${first.index}: ${(first.reason as Error).message})`,
  );
}
