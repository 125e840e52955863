/**
 * Whether a failure comes from a dependency being unreachable or briefly unable to serve (and so will pass once
 * it is back) rather than from the work itself. A consumer waits out the first kind for as long as it lasts and
 * counts only the second toward its dead-letter limit.
 */

/** An error a caller marks as transient itself: the dependency it needs is unavailable, try again later. */
export class TransientError extends Error {
  readonly transient = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

// Socket-level failures (Node's net and dns, and undici's under fetch): the other side is not there right now.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND', // an internal service's name while it is being (re)deployed
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/**
 * PostgreSQL SQLSTATEs that say "not now" rather than "never": connection exceptions (08), serialization failure
 * and deadlock (40001, 40P01), insufficient resources such as too many connections (53), lock and statement
 * timeouts and objects in use under load (55P03, 55006, 57014), shutdown and start-up (57P01 admin shutdown, 57P02 crash shutdown, 57P03
 * cannot connect now), a standby that is read-only during a failover (25006) and system errors (58).
 */
const PG_CODES = new Set(['40001', '40P01', '55P03', '55006', '57014', '57P01', '57P02', '57P03', '25006']);
const PG_CLASSES = new Set(['08', '53', '58']);

// Failures reported without a code: pg and its pool, TypeORM, ioredis and amqplib describe a lost or missing
// connection only in words.
const MESSAGES = [
  /Connection terminated/i, // pg: the server went away mid-query, or connecting timed out
  /timeout exceeded when trying to connect/i, // pg-pool: no connection within connectionTimeoutMillis
  /Client has encountered a connection error and is not queryable/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /Connection is closed/i, // ioredis
  /Reached the max retries per request limit/i, // ioredis while reconnecting
  /Stream isn't writeable/i, // ioredis with the offline queue off
  /Command timed out/i, // ioredis commandTimeout
  /amqp not connected/i, // our client while the broker is away
  /publish not confirmed within/i,
  /Channel (closed|ended)/i, // amqplib
  /Connection closed/i,
];

// Error names that carry the verdict themselves: TypeORM's "not connected", ioredis' retry limit, a timed-out fetch.
const NAMES = new Set([
  'ConnectionIsNotSetError',
  'CannotExecuteNotConnectedError',
  'MaxRetriesPerRequestError',
  'TimeoutError',
  'TransientError',
]);

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  status?: unknown;
  transient?: unknown;
  cause?: unknown;
  driverError?: unknown;
  errors?: unknown;
}

function isTransientItself(e: ErrorLike): boolean {
  if (e.transient === true) return true;
  if (typeof e.name === 'string' && NAMES.has(e.name)) return true;
  const code = e.code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || PG_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && PG_CLASSES.has(code.slice(0, 2))) return true;
  }
  // An internal call answered 502/503/504 or could not be made (AppError SERVICE_UNAVAILABLE and kin); a 500 is
  // the other service's own bug and counts as permanent.
  if (typeof e.status === 'number' && e.status >= 502 && e.status <= 504 && e.name === 'AppError')
    return true;
  return typeof e.message === 'string' && MESSAGES.some((re) => re.test(e.message as string));
}

/**
 * True when the error, or any error it wraps (`cause`, TypeORM's `driverError`, an AggregateError's `errors`),
 * says a dependency is unreachable or unavailable: connection refused, reset or timed out; PostgreSQL shutting
 * down, starting, out of connections, or a serialization or deadlock failure; Redis or RabbitMQ away; an
 * internal service answering 502-504 or not at all. Anything else is permanent.
 */
export function isTransientFailure(err: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [err];
  while (stack.length > 0) {
    const e = stack.pop();
    if (e === null || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const like = e as ErrorLike;
    if (isTransientItself(like)) return true;
    stack.push(like.cause, like.driverError);
    if (Array.isArray(like.errors)) stack.push(...(like.errors as unknown[]));
  }
  return false;
}

/** The longest pause between two tries of a write that must be made. */
const PERSIST_RETRY_MAX_MS = 5_000;

/**
 * Makes a write that must not be lost (an answer in hand, a claim given back) until it is made: while a dependency
 * is away (a transient failure) it is tried again for as long as that lasts, at most `PERSIST_RETRY_MAX_MS` apart;
 * any other failure is given up after 8 tries.
 */
export async function persistently<T>(
  logger: { warn(message: string, fields?: Record<string, unknown>): void },
  what: string,
  write: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= 8 && !isTransientFailure(err)) throw err;
      logger.warn(`${what} failed, retrying`, { attempt, error: (err as Error).message });
      await new Promise((r) =>
        setTimeout(r, Math.min(250 * 2 ** Math.min(attempt, 10), PERSIST_RETRY_MAX_MS)),
      );
    }
  }
}
