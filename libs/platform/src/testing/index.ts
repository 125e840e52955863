import { createServer } from 'node:net';
/**
 * Helpers for component tests: the run's own database, queue and cache names, and polling with a deadline.
 * Only test code imports this entry point.
 */
export function testEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const runId = process.env.TEST_RUN_ID ?? 'local';
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL:
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/business_messaging_test',
    AMQP_PREFIX: `test.${runId}`,
    AMQP_QUEUE_EXPIRES_MS: '600000',
    REDIS_PREFIX: `test:${runId}:`,
    INTERNAL_TOKEN: 'test-internal-token-0123456789',
    ...overrides,
  };
}

const handedOut = new Set<number>();

/** Whether a server could listen on the port, on every interface, right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/**
 * A port for a process the test starts next. Port 0's pick comes from the kernel's ephemeral range, where the
 * outgoing connections made before that process listens (pools, brokers, HTTP clients of a dozen processes) may
 * take it first; so it is drawn below that range (32768 and up on Linux), never the same twice in a run.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!handedOut.has(port) && (await canListen(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port below the ephemeral range');
}

/** A unique suffix for names a test creates, so parallel tests never share data. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** Polls until check returns a value other than undefined/false, or fails after the deadline. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 50, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(
    `timed out waiting for ${what}${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
  );
}

export * from './tcp-proxy';
export * from './migrations';

/**
 * A body as another writer might send it tomorrow: every object, at every depth, with fields we do not know (a
 * flag, a note, a nested object and a list, and a `group_id`). A reader that tolerates them must read the rest
 * exactly as without.
 */
export function withUnknownFields<T>(value: T, depth = 0): T {
  if (Array.isArray(value)) return value.map((v: unknown) => withUnknownFields(v, depth + 1)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, withUnknownFields(v as unknown, depth + 1)]),
  );
  return {
    ...copy,
    group_id: `Y2FwaV9ncm91cDo${depth}`,
    x_future_flag: depth % 2 === 0,
    x_future_note: `added at depth ${depth}`,
    x_future_object: { level: depth, list: [1, 'two', null], nested: { id: `X.${depth}` } },
  } as T;
}

/** The two ways a test reads each real body: as written, and with unknown fields everywhere (for `describe.each`). */
export const AS_WRITTEN_AND_DRESSED: Array<[string, <T>(value: T) => T]> = [
  ['as others publish them', <T>(value: T): T => value],
  ['with fields we do not know sprinkled in', withUnknownFields],
];
