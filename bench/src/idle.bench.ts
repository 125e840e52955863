import { cpus } from 'node:os';
import { Client } from 'pg';
import { BACKENDS, cpuWindow, databaseBackends, POSTGRES, SERVER_GROUPS, type CpuFigures } from './cpu';
import { STACK_DATABASE_URL, startStack } from './stack';

// `pnpm bench idle` (issue 22): what the whole stack costs with no traffic at all.

export interface IdleResult {
  settleSeconds: number;
  cpu: CpuFigures;
  /** Commits per second in the stack's database, and in every database of the server (pg_stat_database). */
  commitsPerSecond: { stack: number; server: number };
}

/** xact_commit of every database now, by its oid, and the stack's own oid. */
async function commits(db: Client): Promise<{ own: string; byDatabase: Map<string, number> }> {
  const { rows } = await db.query<{ datid: string; commits: string; own: boolean }>(
    `SELECT datid::text, xact_commit AS commits, datname = current_database() AS own
       FROM pg_stat_database WHERE datid <> 0`,
  );
  return {
    own: rows.find((r) => r.own)?.datid ?? '',
    byDatabase: new Map(rows.map((r) => [r.datid, Number(r.commits)])),
  };
}

/** Commits between two readings, in the stack's database and in every database present at both. */
function commitsBetween(
  before: Awaited<ReturnType<typeof commits>>,
  after: Awaited<ReturnType<typeof commits>>,
): { stack: number; server: number } {
  let server = 0;
  for (const [datid, n] of after.byDatabase) {
    const was = before.byDatabase.get(datid);
    if (was !== undefined) server += n - was;
  }
  return { stack: (after.byDatabase.get(after.own) ?? 0) - (before.byDatabase.get(before.own) ?? 0), server };
}

/** Starts the whole stack, lets it settle, then reads every process's CPU and the commits over the window. */
export async function benchIdle(): Promise<IdleResult> {
  const settleSeconds = Number(process.env.BENCH_IDLE_SETTLE_SECONDS ?? 10);
  const seconds = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
  const stack = await startStack({ statusDelaysMs: '200,400,600' });
  const db = new Client({ connectionString: STACK_DATABASE_URL });
  const backends = await databaseBackends(STACK_DATABASE_URL);
  try {
    await db.connect();
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    await backends.refresh();
    const window = cpuWindow([...stack.cpuGroups, backends.group, ...SERVER_GROUPS]);
    const before = await commits(db);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const after = await commits(db);
    await backends.refresh();
    const cpu = window.stop();
    // This benchmark's own two statistics queries are commits of the stack's database too: left out.
    const between = commitsBetween(before, after);
    return {
      settleSeconds,
      cpu,
      commitsPerSecond: {
        stack: (between.stack - 2) / cpu.seconds,
        server: (between.server - 2) / cpu.seconds,
      },
    };
  } finally {
    await db.end().catch(() => undefined);
    await backends.close();
    await stack.stop();
  }
}

/** The BENCHMARKS.md section of a result. */
export function idleReport(r: IdleResult): string {
  const percent = (ms: number) => (100 * ms) / (r.cpu.seconds * 1000);
  const sum = (skip: string) => r.cpu.groups.filter((g) => g.name !== skip).reduce((t, g) => t + g.cpuMs, 0);
  const total = sum(BACKENDS);
  const own = sum(POSTGRES);
  return `## Idle stack (issue 22; target: <= 2% of one core in total)

The whole stack (the five services and the sandbox, \`all\` roles, as \`pnpm start\` runs them, on a database of its
own) with no traffic at all: started, left ${r.settleSeconds} s to settle, then each process's utime + stime read from
/proc over ${r.cpu.seconds.toFixed(0)} s. Load average (1 min) ${r.cpu.loadAverage.map((l) => l.toFixed(1)).join(' -> ')} on ${cpus().length} cores.

| process | CPU ms | % of one core |
|---|---|---|
${r.cpu.groups.map((g) => `| ${g.name} | ${g.cpuMs.toFixed(0)} | ${percent(g.cpuMs).toFixed(2)} |`).join('\n')}
| **total**, PostgreSQL by every process (a quiet machine's figure) | **${total.toFixed(0)}** | **${percent(total).toFixed(2)}** |
| **total**, PostgreSQL by the run database's backends (on a shared machine: the stack's own, background writers left out) | **${own.toFixed(0)}** | **${percent(own).toFixed(2)}** |

PostgreSQL commits/s (pg_stat_database \`xact_commit\`): **${r.commitsPerSecond.stack.toFixed(1)}** in the stack's database,
${r.commitsPerSecond.server.toFixed(1)} in the whole server (databases present at both readings). PostgreSQL's, RabbitMQ's and Redis's rows count every
process of those servers: on a machine shared with other work they count that work too.
`;
}
