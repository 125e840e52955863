import { AppError } from '@bm/platform';
import type { ThreadCursor, ThreadEntry } from '../ports/conversation.port';

/*
 * A thread is ordered by time, then the customer's message before ours at the same instant, then the order the
 * customer's messages reached us (their order key), or our message log ids. A page's
 * cursor names its oldest message in that order; it is opaque to clients (base64url).
 */

const RANK = { inbound: 0, outbound: 1 } as const;

/** Newest first, in the thread's order. */
export function newestFirst(a: ThreadEntry, b: ThreadEntry): number {
  if (a.atMicros !== b.atMicros) return a.atMicros > b.atMicros ? -1 : 1;
  if (a.direction !== b.direction) return RANK[b.direction] - RANK[a.direction];
  if (a.direction === 'inbound' && b.direction === 'inbound') return a.orderKey < b.orderKey ? 1 : -1;
  if (a.direction === 'outbound' && b.direction === 'outbound') return b.messageLogId - a.messageLogId;
  return 0;
}

export function encodeCursor(e: ThreadEntry): string {
  const id = e.direction === 'inbound' ? e.orderKey : String(e.messageLogId);
  return Buffer.from(`${e.atMicros}|${RANK[e.direction]}|${id}`, 'utf8').toString('base64url');
}

/** The cursor a client passed back; anything else is a validation error on `before`. */
export function decodeCursor(value: string): ThreadCursor {
  // Printable ASCII ids and at most 16 digits of microseconds (past the year 2200): nothing the database refuses.
  const match = /^(\d{1,16})\|([01])\|([\x21-\x7e]{1,200})$/.exec(
    Buffer.from(value, 'base64url').toString('utf8'),
  );
  const outbound = match?.[2] === '1';
  if (!match || (outbound && !/^\d{1,18}$/.test(match[3]))) {
    throw new AppError('VALIDATION_ERROR', undefined, {
      errors: [{ field: 'before', message: '"before" must be a next_before value of this thread' }],
    });
  }
  return { atMicros: BigInt(match[1]), direction: outbound ? 'outbound' : 'inbound', id: match[3] };
}
