/*
 * Whether a failure to split a stored body may go away by itself (a dependency that is down, restarting or
 * overloaded) or will happen again on every try (the body, or our code, being what it is). The first kind is
 * retried for as long as it lasts; the second counts toward giving the body up (see process-pending-events).
 */

// PostgreSQL classes and codes of a server that is unreachable, restarting, overloaded or resolving contention.
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '53', '57', '58']);
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03', '55006']);
// Node's socket errors and the pg driver's messages when the connection is lost or never made.
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);
const TRANSIENT_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is|fetch failed|aborted due to timeout|The operation was aborted|messaging answered/i;

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when trying again later may succeed; false for a failure that will repeat whatever the time. */
export function isTransientFailure(err: unknown): boolean {
  const next = (e: unknown) =>
    (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  for (let e: unknown = err, depth = 0; e && depth < 5; e = next(e), depth += 1) {
    const code = codeOf(e);
    if (code !== undefined) {
      if (TRANSIENT_NODE_CODES.has(code) || TRANSIENT_SQLSTATES.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2))) return true;
    }
    if (e instanceof Error && TRANSIENT_MESSAGES.test(e.message)) return true;
    if (
      (e as { name?: unknown }).name === 'TimeoutError' ||
      (e as { name?: unknown }).name === 'AbortError'
    ) {
      return true;
    }
  }
  return false;
}
