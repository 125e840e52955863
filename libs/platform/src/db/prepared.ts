import { createHash } from 'node:crypto';

/**
 * Statements each connection prepares (a named statement) instead of having the server parse, analyse and plan
 * them on every call. Worth it for a hot statement that is costly to plan: the status and send paths' CTEs over
 * message_logs and its twelve indexes took about as long to plan as to run (docs/benchmarks-history.md).
 *
 * `prepared(text)` is called once per text (a module constant, or a repository's constructor), not per call: it
 * puts the statement's name in a leading comment, which every data source's client (PipelinedBeginClient) reads
 * without hashing the text again.
 */
const PREFIX = '/* prepared ';
const NAME_LENGTH = 'bm_'.length + 24;

/** The text, marked to run as a prepared statement named after it. */
export function prepared(text: string): string {
  const name = `bm_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  return `${PREFIX}${name} */ ${text}`;
}

/** The statement name of a text marked by `prepared`, or undefined. */
export function preparedName(text: string): string | undefined {
  return text.startsWith(PREFIX) ? text.slice(PREFIX.length, PREFIX.length + NAME_LENGTH) : undefined;
}

/**
 * After five runs PostgreSQL may keep one generic plan, made from what the tables looked like then. A connection
 * that starts beside an empty table (a new install, or the benchmarks) would keep plans made for a table of a
 * few rows: whole-table scans once it has thousands. So each connection prepares a text again, under a new name,
 * once the process has run it these many times (over all its connections: a pool's connection runs only its share,
 * and counting its own runs most connections kept their first plans). By the last, a table that started empty has
 * grown to what its plans should be made for. Bounded: at most four statements per text and connection stay on the
 * server (one more after each stale statement, below).
 */
export const PREPARE_AGAIN_AT: readonly number[] = [100, 1_000, 10_000];

/**
 * Whether an error says the connection's prepared statement is stale or gone, so the text must be prepared again
 * under a new name. "cached plan must not change result type" (0A000, which also covers features PostgreSQL lacks,
 * hence the message) follows a migration that changed a table a prepared `SELECT *` or `RETURNING *` reads
 * (another release's, during a rollout). 26000 is a statement the server does not have. Either fails the one call,
 * as a transient failure its caller retries; the retry prepares the text afresh.
 */
export function isStalePreparedStatement(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code === '26000') return true;
  return (
    code === '0A000' &&
    typeof message === 'string' &&
    message.includes('cached plan must not change result type')
  );
}
