import type { MessageStatus } from '@bm/contracts';

const RANK: Record<MessageStatus, number> = {
  scheduled: 0,
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
  cancelled: 4,
};

/**
 * CONTRACT.md's rules: statuses only move forward (queued/scheduled < sent < delivered < read); `failed` may
 * follow any state but `read`; `failed` and `cancelled` are final. Duplicates and late reports change nothing.
 */
export function canMoveTo(current: MessageStatus, next: MessageStatus): boolean {
  if (current === 'failed' || current === 'cancelled') return false;
  if (next === 'failed') return current !== 'read';
  if (next === 'cancelled') return current === 'scheduled';
  return RANK[next] > RANK[current];
}

/** The statuses from which `next` may be reached, for a conditional UPDATE. */
export function statusesBefore(next: MessageStatus): MessageStatus[] {
  return (Object.keys(RANK) as MessageStatus[]).filter((s) => canMoveTo(s, next));
}

/** The error_message a failed message shows: the upstream code first, so clients can branch on it. */
export function describeFailure(code: number | null, message: string): string {
  return code === null ? message : `upstream error ${code}: ${message}`;
}
