import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT } from './services';

/**
 * What a whole stack costs with no traffic at all: starts it (`scripts/dist/start.js`) on its own ports, database
 * and broker prefix, lets it settle, then reads for IDLE_SECONDS (default 60) the CPU of every process from /proc
 * (the services, this database's PostgreSQL backends and the server's own processes, beam.smp, redis-server) and
 * the database's commits from pg_stat_database. RabbitMQ, Redis and PostgreSQL's shared processes serve every
 * user of the machine: on a shared machine their figures are an upper bound.
 *
 *   node scripts/dist/idle-cost.js
 */
const SECONDS = Number(process.env.IDLE_SECONDS ?? 60);
const SETTLE_SECONDS = Number(process.env.IDLE_SETTLE_SECONDS ?? 20);
const DATABASE = process.env.IDLE_DATABASE ?? 'business_messaging_idle';
const BASE_URL = process.env.IDLE_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const TICKS_PER_SECOND = 100;

const PORTS = {
  GATEWAY_PORT: 3900,
  MESSAGING_PORT: 3901,
  INGRESS_PORT: 3902,
  CAMPAIGN_PORT: 3903,
  DISPATCHER_PORT: 3904,
  SANDBOX_PORT: 4900,
};

function stackEnv(): NodeJS.ProcessEnv {
  const url = (port: number) => `http://127.0.0.1:${port}`;
  return {
    ...process.env,
    ...Object.fromEntries(Object.entries(PORTS).map(([k, v]) => [k, String(v)])),
    DATABASE_URL: `${BASE_URL}/${DATABASE}`,
    AMQP_PREFIX: 'idle-cost',
    REDIS_PREFIX: 'idle-cost:',
    LOG_LEVEL: 'warn',
    MESSAGING_URL: url(PORTS.MESSAGING_PORT),
    CAMPAIGN_URL: url(PORTS.CAMPAIGN_PORT),
    DISPATCHER_URL: url(PORTS.DISPATCHER_PORT),
    INGRESS_URL: url(PORTS.INGRESS_PORT),
    UPSTREAM_BASE_URL: url(PORTS.SANDBOX_PORT),
    SANDBOX_WEBHOOK_URL: `${url(PORTS.INGRESS_PORT)}/api/webhooks/channel`,
  };
}

/** utime + stime of a process, in clock ticks; undefined when it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

function processes(): Array<{ pid: number; comm: string; cmdline: string; ppid: number }> {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const cmdline = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        return [{ pid: Number(d), comm, cmdline, ppid }];
      } catch {
        return [];
      }
    });
}

/** The processes to watch, each under the name its figure is reported by. */
async function watched(starter: number, db: Client): Promise<Map<number, string>> {
  const all = processes();
  const names = new Map<number, string>();
  for (const p of all) {
    if (p.ppid === starter) {
      const service = /services\/([^/]+)\/dist/.exec(p.cmdline)?.[1] ?? p.comm;
      names.set(p.pid, service);
    }
    if (p.comm === 'beam.smp') names.set(p.pid, 'rabbitmq');
    if (p.comm === 'redis-server') names.set(p.pid, 'redis');
  }
  const backends = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [DATABASE],
  );
  for (const { pid } of backends.rows) names.set(pid, 'postgres (this database)');
  const shared = await db.query<{ pid: number; backend_type: string }>(
    "SELECT pid, backend_type FROM pg_stat_activity WHERE backend_type <> 'client backend'",
  );
  for (const { pid } of shared.rows) names.set(pid, 'postgres (shared processes)');
  return names;
}

async function commits(db: Client): Promise<number> {
  const r = await db.query<{ n: string }>(
    'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1',
    [DATABASE],
  );
  return Number(r.rows[0]?.n ?? 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const stack = spawn(process.execPath, [join(ROOT, 'scripts', 'dist', 'start.js')], {
    env: stackEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  stack.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = Date.now() + 120_000;
  while (!output.includes('Business messaging is running')) {
    if (Date.now() > ready || stack.exitCode !== null) throw new Error(`stack did not start:\n${output}`);
    await sleep(500);
  }
  const db = new Client({ connectionString: `${BASE_URL}/postgres` });
  await db.connect();
  try {
    process.stdout.write(`stack up; settling ${SETTLE_SECONDS}s, then measuring ${SECONDS}s\n`);
    await sleep(SETTLE_SECONDS * 1000);
    const names = await watched(stack.pid!, db);
    const before = new Map([...names.keys()].map((pid) => [pid, cpuTicks(pid) ?? 0]));
    const commitsBefore = await commits(db);
    const started = Date.now();
    await sleep(SECONDS * 1000);
    const elapsed = (Date.now() - started) / 1000;
    const commitsAfter = await commits(db);
    const byName = new Map<string, number>();
    for (const [pid, name] of names) {
      const used = (cpuTicks(pid) ?? before.get(pid)!) - before.get(pid)!;
      byName.set(name, (byName.get(name) ?? 0) + used);
    }
    const pct = (ticks: number) => ((ticks / TICKS_PER_SECOND / elapsed) * 100).toFixed(2);
    let total = 0;
    let ours = 0;
    for (const [name, ticks] of [...byName].sort()) {
      total += ticks;
      if (!['rabbitmq', 'redis', 'postgres (shared processes)'].includes(name)) ours += ticks;
      process.stdout.write(`${name.padEnd(30)} ${pct(ticks).padStart(6)}% of a core\n`);
    }
    process.stdout.write(`${'services + own backends'.padEnd(30)} ${pct(ours).padStart(6)}% of a core\n`);
    process.stdout.write(`${'total'.padEnd(30)} ${pct(total).padStart(6)}% of a core\n`);
    process.stdout.write(
      `commits/s (this database)      ${((commitsAfter - commitsBefore) / elapsed).toFixed(1)}\n`,
    );
  } finally {
    await db.end();
    stack.kill('SIGTERM');
    await new Promise((r) => stack.once('exit', r));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`idle-cost failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
