import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from 'pg';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of one process, in milliseconds; undefined once it has exited. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name and state.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Every process whose command name (/proc/<pid>/comm) is `name`. */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** A group of processes whose CPU is read together: one service, or every PostgreSQL process. */
export interface CpuGroup {
  name: string;
  /** The processes now (a group such as PostgreSQL's backends changes while it is measured). */
  pids: () => number[];
}

export const fixedGroup = (name: string, pid: number | undefined): CpuGroup => ({
  name,
  pids: () => (pid === undefined ? [] : [pid]),
});

export const namedGroup = (name: string, command: string): CpuGroup => ({
  name,
  pids: () => pidsNamed(command),
});

/** The shared servers every stack uses: all their processes, whoever else uses them on this machine. */
export const POSTGRES = 'PostgreSQL: every process';
export const RABBITMQ = 'RabbitMQ (beam.smp)';
export const REDIS = 'Redis (redis-server)';
export const SERVER_GROUPS: CpuGroup[] = [
  namedGroup(POSTGRES, 'postgres'),
  namedGroup(RABBITMQ, 'beam.smp'),
  namedGroup(REDIS, 'redis-server'),
];

type Snapshot = Map<string, Map<number, number>>;

function snapshot(groups: CpuGroup[]): Snapshot {
  return new Map(
    groups.map((g) => [
      g.name,
      new Map(
        g.pids().flatMap((pid) => {
          const ms = processCpuMs(pid);
          return ms === undefined ? [] : [[pid, ms] as [number, number]];
        }),
      ),
    ]),
  );
}

export interface CpuFigures {
  seconds: number;
  /** CPU milliseconds spent by each group over the window, in the groups' order. */
  groups: Array<{ name: string; cpuMs: number }>;
  /** One-minute load average at the start and at the end. */
  loadAverage: [number, number];
}

/**
 * Starts a CPU window over the groups: `stop()` gives each group's utime + stime spent since. A process that
 * started inside the window counts from zero; one that exited inside it is lost (PostgreSQL backends of pools
 * live as long as their pool, so this misses little).
 */
export function cpuWindow(groups: CpuGroup[]): { stop(): CpuFigures } {
  const started = performance.now();
  const load = loadavg()[0];
  const before = snapshot(groups);
  return {
    stop() {
      const after = snapshot(groups);
      return {
        seconds: (performance.now() - started) / 1000,
        groups: groups.map((g) => {
          const was = before.get(g.name)!;
          let cpuMs = 0;
          for (const [pid, ms] of after.get(g.name)!) cpuMs += ms - (was.get(pid) ?? 0);
          return { name: g.name, cpuMs };
        }),
        loadAverage: [load, loadavg()[0]],
      };
    },
  };
}

export const totalCpuMs = (figures: CpuFigures) => figures.groups.reduce((sum, g) => sum + g.cpuMs, 0);

export const BACKENDS = "PostgreSQL: the run database's backends";

/**
 * The PostgreSQL backends serving one database (pg_stat_activity), as a CPU group: on a server shared with other
 * work, the part of PostgreSQL's CPU that is the run's own (its background writers are left out). Call `refresh()`
 * once the run's pools are connected and again before reading the window: the group is every backend seen.
 */
export async function databaseBackends(
  databaseUrl: string,
): Promise<{ group: CpuGroup; refresh(): Promise<void>; close(): Promise<void> }> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const pids = new Set<number>();
  return {
    group: { name: BACKENDS, pids: () => [...pids] },
    async refresh() {
      const { rows } = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      for (const r of rows) pids.add(r.pid);
    },
    close: () => db.end(),
  };
}
