import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import { Client } from 'pg';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  /** Requests answered over the whole load. */
  requests: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Forks a script that reports its port over IPC once listening. */
export function forkServer(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** The repository root, where the built services are. */
export const ROOT = join(__dirname, '..', '..');
export const INTERNAL_TOKEN = 'bench-internal-token-0123456789';
/** The benchmarks' own database, so a run never meets development data. */
export const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/business_messaging_bench';

/** Starts a built service script (relative to the repository root) with the given environment added. */
export function startService(script: string, env: Record<string, string>): ChildProcess {
  // BENCH_CPU_PROF=<dir> writes a CPU profile of every service, to look for where the time goes.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  return spawn(process.execPath, [...profile, join(ROOT, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Runs autocannon against one URL and keeps the figures we report. */
export async function load(
  name: string,
  url: string,
  options: {
    connections: number;
    durationSeconds: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: string;
  },
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
    method: options.method ?? 'GET',
    body: options.body,
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 150; i += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

/**
 * Drops the benchmark's own database, so every run starts from the same empty tables: the millions of rows earlier
 * runs leave behind outgrow PostgreSQL's cache and slow each run more than the last. Migrations create it again.
 */
export async function freshDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A sending number's rate in the "sandbox uncapped" benchmarks: far above what the path can do, so the figure
 * is the path's own rate, not the number's cap (the upstream grants 80, or 1,000 upgraded).
 */
export const UNCAPPED_THROUGHPUT = 10_000;

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** The broker and Redis prefix of the benchmarks' services (`BENCH_PREFIX`, default `bench`): two runs at once need two. */
export const BENCH_PREFIX = process.env.BENCH_PREFIX ?? 'bench';

/** The environment every benchmarked service shares: the bench database, its own prefixes, quiet logs. */
export const BENCH_ENV = {
  DATABASE_URL,
  REDIS_PREFIX: `${BENCH_PREFIX}:`,
  AMQP_PREFIX: BENCH_PREFIX,
  ADMIN_TOKEN,
  INTERNAL_TOKEN,
  LOG_LEVEL: 'error',
};

/** Drops and re-creates the bench database with every service's migrations: each run starts empty. */
export async function migrateBenchDatabase(env: typeof BENCH_ENV = BENCH_ENV): Promise<void> {
  await freshDatabase(env.DATABASE_URL);
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/dist/migrate-all.js')], {
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('migrations failed');
}

/** The sandbox's own ceiling for a run's sends (the baseline of the queued-to-sent figures). */
export interface SandboxCeiling {
  /** Sends made (after a warm-up of a few hundred), accepted or not. */
  messages: number;
  /** Sends the sandbox did not accept: 0 unless something is wrong. */
  failures: number;
  /** First request to last answer. */
  seconds: number;
  /** Accepted sends per second. */
  perSecond: number;
  /** Calls in flight: the worker's SEND_CONCURRENCY. */
  concurrency: number;
}

/**
 * One process (bench/src/sandbox-ceiling.ts) POSTing the upstream bodies of the account's message logs straight to
 * the sandbox's /{version}/{phone_number_id}/messages, with the messaging worker's HTTP client and concurrency as
 * `workerEnv` (the worker's environment, UPSTREAM_BASE_URL included) configures them: `messages` sends, or as many
 * as `maxSeconds` allow. Run it once the figure it is the baseline of is measured, in the same sandbox.
 */
export function sandboxCeiling(options: {
  workerEnv: Record<string, string>;
  accountId: string;
  phoneNumberId: string;
  accessToken: string;
  messages: number;
  maxSeconds?: number;
}): Promise<SandboxCeiling> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'sandbox-ceiling.js'), [], {
      env: {
        ...process.env,
        ...options.workerEnv,
        CEILING_ACCOUNT_ID: options.accountId,
        CEILING_PHONE_NUMBER_ID: options.phoneNumberId,
        CEILING_ACCESS_TOKEN: options.accessToken,
        CEILING_MESSAGES: String(options.messages),
        CEILING_MAX_SECONDS: String(
          options.maxSeconds ?? Number(process.env.BENCH_CEILING_MAX_SECONDS ?? 20),
        ),
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (m: SandboxCeiling) => resolve(m));
    child.once('exit', (code) => reject(new Error(`the sandbox ceiling exited with ${code}`)));
  });
}

/** POSTs a JSON body on a keep-alive agent; the answer's status and text (rejects on a network error). */
export function postJson(
  agent: Agent,
  url: URL,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
