import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  BACKENDS,
  cpuWindow,
  databaseBackends,
  fixedGroup,
  POSTGRES,
  RABBITMQ,
  REDIS,
  SERVER_GROUPS,
  type CpuFigures,
} from './cpu';
import {
  cpuPerOperation,
  drainFloor,
  DRAIN_WORKER,
  ingressFloor,
  LOAD_GENERATOR,
  PROXY,
  quietSandbox,
  RECEIVER,
  SEND_ENDPOINT,
  sendFloor,
  type FloorFigures,
} from './floors';
import { postJson, stop } from './harness';
import {
  FLOOR_OPERATIONS,
  operationsBetween,
  readBrokerCounts,
  readTables,
  rowWrites,
  type Operations,
} from './operations';
import { seedSender, STACK_AMQP_PREFIX, STACK_DATABASE_URL, startStack, type Stack } from './stack';

/** The schemas of the stack's services: the floors' own tables (schema `bench`) are left out. */
const STACK_SCHEMAS = ['gateway', 'messaging', 'campaign', 'ingress', 'dispatcher'];

// `pnpm bench lifecycle` (issue 22): whole message lifecycles through the whole stack. Each message is sent through
// the gateway; the worker sends it to the sandbox, which answers with three signed status webhooks (sent, delivered,
// read; one item per call, as the upstream does) to webhook-ingress; the dispatcher delivers each
// `message.status_updated` to the client's receiver (a local HTTP server of its own answering 200).

const PHONE = '14155550100';
const MAX_IN_FLIGHT = 256;

const numberList = (value: string) =>
  value
    .split(',')
    .map((v) => Number(v.trim()))
    .filter((v) => v > 0);

const settings = () => ({
  messages: Number(process.env.BENCH_LIFECYCLE_MESSAGES ?? 20_000),
  rates: numberList(process.env.BENCH_LIFECYCLE_RATES ?? '10,25,50,100,150,200,300,400,600,800,1000'),
  /** A sustained rate keeps the p99 from 202 to `read` within this: a backlog shows as seconds. */
  maxP99Ms: Number(process.env.BENCH_LIFECYCLE_MAX_P99_MS ?? 3000),
  stepSeconds: Number(process.env.BENCH_LIFECYCLE_STEP_SECONDS ?? 10),
  graceSeconds: Number(process.env.BENCH_LIFECYCLE_GRACE_SECONDS ?? 15),
  idleSeconds: Number(process.env.BENCH_LIFECYCLE_IDLE_SECONDS ?? 10),
  /** A fixed rate for the measured run; half the sustained rate when absent. */
  rate: process.env.BENCH_LIFECYCLE_RATE ? Number(process.env.BENCH_LIFECYCLE_RATE) : undefined,
  statusDelaysMs: process.env.BENCH_LIFECYCLE_STATUS_DELAYS_MS ?? '50,100,150',
  connections: Number(process.env.BENCH_CONNECTIONS ?? 64),
  durationSeconds: Number(process.env.BENCH_DURATION_SECONDS ?? 10),
  floorMessages: Number(process.env.BENCH_LIFECYCLE_FLOOR_MESSAGES ?? 10_000),
});

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The client's receiver, its own process. */
class Receiver {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    const child = fork(join(__dirname, 'lifecycle-receiver.js'), [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m));
      child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
    });
    return new Receiver(child, `http://127.0.0.1:${port}/hook`);
  }

  private ask<T>(what: string): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (m: T) => resolve(m));
      this.child.send(what);
    });
  }

  count = () => this.ask<{ read: number; deliveries: number }>('count');
  report = () =>
    this.ask<{ readAt: Array<[number, number]>; counts: Record<string, number>; deliveries: number }>(
      'report',
    );
  reset = () => this.ask<unknown>('reset');
}

interface Sent {
  /** message_log_id -> when its 202 arrived. */
  accepted: Map<number, number>;
  refused: number;
  sendSeconds: number;
}

/** `count` sends through the gateway, paced at `rate` per second (open loop, at most MAX_IN_FLIGHT at once). */
async function paceSends(gatewayUrl: string, apiKey: string, body: string, rate: number, count: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  const url = new URL(`${gatewayUrl}/api/v1/messages/send`);
  const payload = Buffer.from(body);
  const sent: Sent = { accepted: new Map(), refused: 0, sendSeconds: 0 };
  let next = 0;
  let inFlight = 0;
  const started = Date.now();
  const fire = () =>
    postJson(agent, url, payload, { authorization: `Bearer ${apiKey}` }).then(
      (answer) => {
        const id = /"message_log_id":(\d+)/.exec(answer.text);
        if (answer.status === 202 && id) sent.accepted.set(Number(id[1]), Date.now());
        else sent.refused += 1;
      },
      () => {
        sent.refused += 1;
      },
    );
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(count, Math.floor(((Date.now() - started) / 1000) * rate) + 1);
      while (next < due && inFlight < MAX_IN_FLIGHT) {
        next += 1;
        inFlight += 1;
        void fire().then(() => {
          inFlight -= 1;
          if (next >= count && inFlight === 0) resolve();
        });
      }
      if (next < count) setTimeout(tick, 2);
    };
    tick();
  });
  sent.sendSeconds = (Date.now() - started) / 1000;
  agent.destroy();
  return sent;
}

export interface LifecycleRun {
  rate: number;
  messages: number;
  refused: number;
  /** Sends per second achieved (first to last 202). */
  sendRate: number;
  /** Messages whose `read` reached the receiver. */
  read: number;
  /** Last send's 202 to the last `read` at the receiver. */
  tailSeconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Median latency of the first and of the last quarter of the sends: a growing backlog shows as a rise. */
  firstQuarterP50Ms: number;
  lastQuarterP50Ms: number;
  sustained: boolean;
}

/** Sends at `rate`, waits for every `read` (or the grace after the last send), judges the run. */
async function runAt(
  stack: Stack,
  sender: { apiKey: string },
  receiver: Receiver,
  body: string,
  rate: number,
  count: number,
  limits: { graceSeconds: number; maxP99Ms: number },
): Promise<LifecycleRun & { deliveries: number; counts: Record<string, number> }> {
  const { graceSeconds } = limits;
  await receiver.reset();
  const sent = await paceSends(stack.gatewayUrl, sender.apiKey, body, rate, count);
  const deadline = Date.now() + graceSeconds * 1000;
  let last = await receiver.count();
  while (last.read < sent.accepted.size && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = await receiver.count();
  }
  // Every delivery of the run (a `read` may overtake its `delivered`): quiet for half a second, or the deadline.
  for (let quiet = 0; quiet < 5 && Date.now() < deadline + 5_000;) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await receiver.count();
    quiet = now.deliveries === last.deliveries ? quiet + 1 : 0;
    last = now;
  }
  const report = await receiver.report();
  const readAt = new Map(report.readAt);
  const order = [...sent.accepted.entries()].sort((a, b) => a[1] - b[1]);
  const latency = (entries: Array<[number, number]>) =>
    entries
      .filter(([id]) => readAt.has(id))
      .map(([id, at]) => readAt.get(id)! - at)
      .sort((a, b) => a - b);
  const all = latency(order);
  const quarter = Math.max(1, Math.floor(order.length / 4));
  const firstQuarterP50Ms = percentile(latency(order.slice(0, quarter)), 50);
  const lastQuarterP50Ms = percentile(latency(order.slice(-quarter)), 50);
  const acceptedTimes = order.map(([, at]) => at);
  const lastAccepted = acceptedTimes[acceptedTimes.length - 1] ?? Date.now();
  const sendRate = order.length / Math.max(0.001, (lastAccepted - (acceptedTimes[0] ?? lastAccepted)) / 1000);
  const read = all.length;
  const sustained =
    sent.refused === 0 &&
    read === count &&
    sendRate >= 0.95 * rate &&
    lastQuarterP50Ms <= 2 * firstQuarterP50Ms + 250 &&
    percentile(all, 99) <= limits.maxP99Ms;
  return {
    rate,
    messages: count,
    refused: sent.refused,
    sendRate,
    read,
    tailSeconds: (Math.max(...readAt.values(), lastAccepted) - lastAccepted) / 1000,
    p50Ms: percentile(all, 50),
    p99Ms: percentile(all, 99),
    firstQuarterP50Ms,
    lastQuarterP50Ms,
    sustained,
    deliveries: report.deliveries,
    counts: report.counts,
  };
}

export interface ProcessCpu {
  name: string;
  cpuMs: number;
  perLifecycleMs: number;
  /** The same less what the process spends idle (its rate in the idle window before, over the measured window). */
  aboveIdleMs: number;
  /** Share of one core over the window. */
  corePercent: number;
}

export interface LifecycleResult {
  statusDelaysMs: string;
  maxP99Ms: number;
  graceSeconds: number;
  steps: LifecycleRun[];
  sustainedRate: number;
  measured: LifecycleRun & { deliveries: number; counts: Record<string, number>; cpuSeconds: number };
  processes: ProcessCpu[];
  /** The idle window measured just before the measured run. */
  idleSeconds: number;
  loadAverage: [number, number];
  floors: { send: FloorFigures; drain: FloorFigures & { concurrency: number }; ingress: FloorFigures };
  /** The floor's CPU for one lifecycle, by process: 1 send, 3 receipts, 4 deliveries. */
  floorProcesses: Array<{ name: string; perLifecycleMs: number }>;
  floorPostgresMs: number;
  /** What the measured run did: rows written, commits, events published, deliveries settled. */
  operations: Operations;
  profileDir?: string;
}

function processes(cpu: CpuFigures, idle: CpuFigures, lifecycles: number): ProcessCpu[] {
  return cpu.groups.map((g, i) => ({
    name: g.name,
    cpuMs: g.cpuMs,
    perLifecycleMs: g.cpuMs / lifecycles,
    aboveIdleMs: (g.cpuMs - (idle.groups[i].cpuMs / idle.seconds) * cpu.seconds) / lifecycles,
    corePercent: (100 * g.cpuMs) / (cpu.seconds * 1000),
  }));
}

/** The SEND_CONCURRENCY of messaging's worker, read from its build with this environment. */
function sendConcurrency(): number {
  const { loadMessagingConfig } = require(
    join(__dirname, '..', '..', 'services', 'messaging', 'dist', 'config.js'),
  ) as { loadMessagingConfig: (env: NodeJS.ProcessEnv) => { SEND_CONCURRENCY: number } };
  return loadMessagingConfig({ ...process.env, UPSTREAM_BASE_URL: 'http://127.0.0.1:9' }).SEND_CONCURRENCY;
}

/**
 * The floor's CPU for one lifecycle: one send (bare proxy hop + insert/confirm-publish endpoint), three receipts
 * (bare signed-insert receiver), four deliveries (the minimal drain worker: the send to the upstream and the three
 * webhooks to the client are each a consume, a POST, a row update and an ack). PostgreSQL, RabbitMQ and Redis are
 * counted in the same proportions; the sandbox and the load generator are the outside world, left out.
 */
/** The servers every stack and floor shares, counted in both by their processes. */
const SHARED_SERVERS = [BACKENDS, RABBITMQ, REDIS];

function floorPerLifecycle(floors: LifecycleResult['floors']): LifecycleResult['floorProcesses'] {
  const of = (name: string) =>
    cpuPerOperation(floors.send, name) +
    3 * cpuPerOperation(floors.ingress, name) +
    4 * cpuPerOperation(floors.drain, name);
  return [
    { name: `${PROXY} (1 send)`, perLifecycleMs: cpuPerOperation(floors.send, PROXY) },
    { name: `${SEND_ENDPOINT} (1 send)`, perLifecycleMs: cpuPerOperation(floors.send, SEND_ENDPOINT) },
    { name: `${RECEIVER} (3 receipts)`, perLifecycleMs: 3 * cpuPerOperation(floors.ingress, RECEIVER) },
    {
      name: `${DRAIN_WORKER} (4 deliveries)`,
      perLifecycleMs: 4 * cpuPerOperation(floors.drain, DRAIN_WORKER),
    },
    ...SHARED_SERVERS.map((name) => ({ name, perLifecycleMs: of(name) })),
  ];
}

/** Every PostgreSQL process's CPU in the floors, per lifecycle: shown, not counted (others' work is in it). */
function floorPostgresMs(floors: LifecycleResult['floors']): number {
  return (
    cpuPerOperation(floors.send, POSTGRES) +
    3 * cpuPerOperation(floors.ingress, POSTGRES) +
    4 * cpuPerOperation(floors.drain, POSTGRES)
  );
}

export async function benchLifecycle(): Promise<LifecycleResult> {
  const s = settings();
  const stack = await startStack({ statusDelaysMs: s.statusDelaysMs });
  const receiver = await Receiver.start();
  const db = new Client({ connectionString: STACK_DATABASE_URL });
  let stackStopped = false;
  try {
    await db.connect();
    const sender = await seedSender(stack, db, PHONE);
    const settingsRes = await fetch(`${stack.gatewayUrl}/api/v1/webhooks/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${sender.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    if (!settingsRes.ok)
      throw new Error(`webhook settings: ${settingsRes.status} ${await settingsRes.text()}`);
    const body = JSON.stringify({
      channel_account_id: sender.accountId,
      phone: PHONE,
      message_type: 'text',
      data: { text: 'Your order has shipped.' },
    });
    const at = (rate: number, count: number) => runAt(stack, sender, receiver, body, rate, count, s);
    // Warm-up (JIT, pools, caches) at the lowest rate, not reported.
    await at(s.rates[0] ?? 10, 100);

    const steps: LifecycleRun[] = [];
    let sustainedRate = 0;
    if (s.rate === undefined) {
      for (const rate of s.rates) {
        const { deliveries: _d, counts: _c, ...step } = await at(rate, Math.ceil(rate * s.stepSeconds));
        process.stdout.write(`lifecycle step ${JSON.stringify(step)}\n`);
        steps.push(step);
        if (!step.sustained) break;
        sustainedRate = rate;
        // Let a step's stragglers settle before the next.
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    const rate = s.rate ?? Math.max(1, Math.floor(Math.max(sustainedRate, s.rates[0]) / 2));

    const backends = await databaseBackends(STACK_DATABASE_URL);
    await backends.refresh();
    const groups = [
      ...stack.cpuGroups,
      fixedGroup('client receiver', receiver.child.pid),
      LOAD_GENERATOR,
      backends.group,
      ...SERVER_GROUPS,
    ];
    // What the stack costs with nothing to do, in this run: the measured run's figures are shown less it too.
    const idleWindow = cpuWindow(groups);
    await new Promise((r) => setTimeout(r, s.idleSeconds * 1000));
    const idle = idleWindow.stop();
    // The idle window let every backend publish its table counters (10 s idle at most).
    const tablesBefore = await readTables(db, STACK_SCHEMAS);
    const brokerBefore = await readBrokerCounts(stack.serviceUrls);
    const window = cpuWindow(groups);
    const run = await at(rate, s.messages);
    await backends.refresh();
    await backends.close();
    const cpu = window.stop();
    process.stdout.write(`lifecycle measured ${JSON.stringify({ ...run, cpu })}\n`);
    const brokerAfter = await readBrokerCounts(stack.serviceUrls);

    await stop(receiver.child);
    await stack.stop();
    stackStopped = true;
    // The stack's backends have exited, publishing their last counters (what they did after the run is little).
    const operations = operationsBetween(
      { ...tablesBefore, ...brokerBefore },
      { ...(await readTables(db, STACK_SCHEMAS)), ...brokerAfter },
      STACK_AMQP_PREFIX,
    );
    // The floors, in the same run, with the stack stopped: the cores are theirs as the stack's were its own.
    const floorLoad = {
      connections: s.connections,
      durationSeconds: s.durationSeconds,
      databaseUrl: STACK_DATABASE_URL,
    };
    const send = await sendFloor({ ...floorLoad, body });
    const ingress = await ingressFloor(floorLoad);
    const sandbox = await quietSandbox();
    let drain;
    try {
      drain = await drainFloor({
        sandbox,
        phoneNumberId: sender.phoneNumberId,
        messages: s.floorMessages,
        concurrency: sendConcurrency(),
        databaseUrl: STACK_DATABASE_URL,
      });
    } finally {
      await stop(sandbox.child);
    }
    const floors = { send, ingress, drain };
    const profileDir = process.env.BENCH_CPU_PROF;
    if (profileDir) {
      // The profiles are named by pid: which service each pid was.
      const names = Object.fromEntries(stack.services.map((sv) => [String(sv.child.pid), sv.name]));
      writeFileSync(join(profileDir, 'services.json'), JSON.stringify(names, null, 2));
    }
    return {
      statusDelaysMs: s.statusDelaysMs,
      maxP99Ms: s.maxP99Ms,
      graceSeconds: s.graceSeconds,
      steps,
      sustainedRate,
      measured: { ...run, cpuSeconds: cpu.seconds },
      processes: processes(cpu, idle, run.read || 1),
      idleSeconds: idle.seconds,
      loadAverage: cpu.loadAverage,
      floors,
      floorProcesses: floorPerLifecycle(floors),
      floorPostgresMs: floorPostgresMs(floors),
      operations,
      profileDir,
    };
  } finally {
    await db.end().catch(() => undefined);
    await stop(receiver.child);
    if (!stackStopped) await stack.stop();
  }
}

/**
 * What the measured run's CPU paid for: each table's row writes, the commits, the events published and the
 * deliveries settled per lifecycle, and PostgreSQL's and RabbitMQ's CPU per operation beside the floor's.
 */
function operationsReport(r: LifecycleResult, platformMs: number, floorMs: number): string {
  const ops = r.operations;
  const n = Math.max(1, r.measured.read);
  const per = (x: number) => (x / n).toFixed(2);
  const writes = ops.tables.reduce((sum, t) => sum + rowWrites(t), 0);
  const published = ops.published;
  const delivered = ops.deliveries.reduce((sum, d) => sum + d.settled, 0);
  const cpuOf = (rows: Array<{ name: string; perLifecycleMs: number }>, name: string) =>
    rows.find((p) => p.name === name)?.perLifecycleMs ?? NaN;
  const pg = { ours: cpuOf(r.processes, BACKENDS), floor: cpuOf(r.floorProcesses, BACKENDS) };
  const mq = { ours: cpuOf(r.processes, RABBITMQ), floor: cpuOf(r.floorProcesses, RABBITMQ) };
  const f = FLOOR_OPERATIONS;
  const ourWrites = writes / n;
  const ourBrokerOps = (published + delivered) / n;
  const floorBrokerOps = f.publishes + f.deliveries;
  const us = (ms: number, count: number) => ((1000 * ms) / count).toFixed(0);
  const atFloorCost = (ourWrites * pg.floor) / f.rowWrites + (ourBrokerOps * mq.floor) / floorBrokerOps;
  const floorPrograms = r.floorProcesses
    .filter((p) => !SHARED_SERVERS.includes(p.name))
    .reduce((sum, p) => sum + p.perLifecycleMs, 0);
  return `What that CPU paid for, counted over the measured run and divided by its ${r.measured.read} lifecycles: each table's
row writes (pg_stat_user_tables: inserts, updates of which HOT, deletes), the messages published, each confirmed
(\`bm_amqp_messages_published_total\`: the outbox relays' and webhook-ingress's own before its 200) and the
deliveries each queue's consumer settled (\`bm_amqp_messages_consumed_total\`):

| table | inserts | updates (HOT) | deletes |
|---|---|---|---|
${ops.tables.map((t) => `| ${t.table} | ${per(t.inserts)} | ${per(t.updates)} (${per(t.hotUpdates)}) | ${per(t.deletes)} |`).join('\n')}
| **row writes** | | | **${per(writes)}** (the floor: ${f.rowWrites}) |

| queue | deliveries per lifecycle |
|---|---|
${ops.deliveries.map((d) => `| ${d.queue} | ${per(d.settled)} |`).join('\n')}

Commits per lifecycle: ${per(ops.commits)}. Broker operations per lifecycle: ${per(published)} published + ${per(delivered)} delivered
(the floor: ${f.publishes} + ${f.deliveries}).

| per operation | this stack | the floor |
|---|---|---|
| PostgreSQL backends' CPU per row write | ${us(pg.ours, ourWrites)} µs (${pg.ours.toFixed(2)} ms / ${ourWrites.toFixed(1)}) | ${us(pg.floor, f.rowWrites)} µs (${pg.floor.toFixed(2)} ms / ${f.rowWrites}) |
| RabbitMQ's CPU per publish or delivery | ${us(mq.ours, ourBrokerOps)} µs (${mq.ours.toFixed(2)} ms / ${ourBrokerOps.toFixed(1)}) | ${us(mq.floor, floorBrokerOps)} µs (${mq.floor.toFixed(2)} ms / ${floorBrokerOps}) |

At the floor's cost per operation, this stack's row writes and broker operations alone would take
${(atFloorCost / floorMs).toFixed(2)}x the floor's whole CPU for the lifecycle (${atFloorCost.toFixed(2)} of ${floorMs.toFixed(2)} ms); with the five services
costing no more than the floor's own programs (${floorPrograms.toFixed(2)} ms, though they make more hops), ${((atFloorCost + floorPrograms) / floorMs).toFixed(2)}x.
Measured in all: ${(platformMs / floorMs).toFixed(2)}x.`;
}

const OUTSIDE = new Set(['upstream-sandbox', 'client receiver', LOAD_GENERATOR.name]);

const TABLE_HEAD = `| rate/s | messages | refused | sends/s | read | p50 ms | p99 ms | p50 first / last quarter ms | last 202 to last read s | sustained |
|---|---|---|---|---|---|---|---|---|---|`;

/** The BENCHMARKS.md section of a result. */
export function lifecycleReport(r: LifecycleResult): string {
  const ms = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0));
  const stepRow = (p: LifecycleRun) =>
    `| ${p.rate} | ${p.messages} | ${p.refused} | ${p.sendRate.toFixed(0)} | ${p.read} | ${ms(p.p50Ms)} | ${ms(p.p99Ms)} | ${ms(p.firstQuarterP50Ms)} / ${ms(p.lastQuarterP50Ms)} | ${p.tailSeconds.toFixed(1)} | ${p.sustained ? 'yes' : 'no'} |`;
  const platform = r.processes.filter((p) => !OUTSIDE.has(p.name) && p.name !== POSTGRES);
  const platformMs = platform.reduce((sum, p) => sum + p.perLifecycleMs, 0);
  const platformAboveIdleMs = platform.reduce((sum, p) => sum + p.aboveIdleMs, 0);
  const floorMs = r.floorProcesses.reduce((sum, p) => sum + p.perLifecycleMs, 0);
  const m = r.measured;
  const d = r.floors.drain;
  return `## Message lifecycle: send, three status receipts, client webhooks (issue 22)

Each message: \`POST /api/v1/messages/send\` through the gateway; messaging's worker sends it to the sandbox, which
answers with three signed status webhooks (sent, delivered, read at ${r.statusDelaysMs} ms after acceptance; one
item per call, as the upstream does) to webhook-ingress; the dispatcher delivers every \`message.status_updated\` to
the client's receiver (a local HTTP server of its own process answering 200). The whole stack runs (six processes,
\`all\` roles, its own database). Latency: the send's 202 at the load generator to the receiver getting \`read\`.

Finding the sustained rate: ${r.steps.length > 0 ? `steps of ${r.steps[0].messages / r.steps[0].rate} s at each rate, stopping at the first that is not sustained (every send 202, every message \`read\` within the grace after the last send, sends at >= 95% of the rate, the last quarter's median latency <= 2x the first quarter's + 250 ms and p99 <= ${r.maxP99Ms} ms: no growing backlog)` : 'skipped (BENCH_LIFECYCLE_RATE given)'}.

${r.steps.length > 0 ? `${TABLE_HEAD}\n${r.steps.map(stepRow).join('\n')}\n\nSustained: **${r.steps.every((p) => p.sustained) ? '>= ' : ''}${r.sustainedRate} lifecycles/s**${r.steps.every((p) => p.sustained) ? ' (every rate tried was sustained: give higher BENCH_LIFECYCLE_RATES)' : ''}. ` : ''}Measured run, at ${m.rate}/s${r.steps.length > 0 ? ' (half the sustained rate)' : ''}:

${TABLE_HEAD}
${stepRow(m)}

${m.read < m.messages - m.refused ? `**Only ${m.read} of the ${m.messages - m.refused} accepted messages reached \`read\` within ${r.graceSeconds} s of the last send: the path fell behind at this rate, so the figures below divide the CPU of all the sends by the completed lifecycles.**\n\n` : ''}p50 / p99 from the 202 to the client's \`read\`: **${ms(m.p50Ms)} / ${ms(m.p99Ms)} ms** (target p99 <= 1 s at half the
sustained rate; the sandbox's own ${r.statusDelaysMs.split(',').pop()} ms before \`read\` included). The receiver got
${m.deliveries} webhooks (${Object.entries(m.counts)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')}): ${(m.deliveries / Math.max(1, m.read)).toFixed(2)} per message.

CPU per message lifecycle, each process's utime + stime from /proc over the measured run (${m.cpuSeconds.toFixed(1)} s,
first send to the last webhook), divided by the ${m.read} lifecycles; load average (1 min) ${r.loadAverage
    .map((l) => l.toFixed(1))
    .join(' -> ')} on ${cpus().length} cores:

| process | CPU ms per lifecycle | the same less its idle cost | % of one core |
|---|---|---|---|
${r.processes.map((p) => `| ${p.name} | ${p.perLifecycleMs.toFixed(2)} | ${p.aboveIdleMs.toFixed(2)} | ${p.corePercent.toFixed(1)} |`).join('\n')}
| **platform total** (services without the sandbox, the run database's PostgreSQL backends, RabbitMQ, Redis) | **${platformMs.toFixed(2)}** | **${platformAboveIdleMs.toFixed(2)}** | |

"Less its idle cost": each process's CPU rate in a ${r.idleSeconds.toFixed(0)} s window with no traffic just before the
measured run, times the run's duration, taken off (at a low rate the idle polling is a large share of each lifecycle).

Floor for the same work, measured after the stack stopped in the same run: 1 send (autocannon at the bare proxy hop
in front of the bare insert + confirm-publish endpoint: ${r.floors.send.perSecond.toFixed(0)} req/s), 3 receipts (the bare
signed-insert receiver: ${r.floors.ingress.perSecond.toFixed(0)} req/s), 4 deliveries (the minimal drain worker, ${d.concurrency} in flight: ${d.perSecond.toFixed(0)} msg/s;
the upstream send and the three client webhooks each are a consume, a POST, a row update and an ack):

| floor process | CPU ms per lifecycle |
|---|---|
${r.floorProcesses.map((p) => `| ${p.name} | ${p.perLifecycleMs.toFixed(2)} |`).join('\n')}
| **floor total** (floor processes, the run database's PostgreSQL backends, RabbitMQ, Redis) | **${floorMs.toFixed(2)}** |
| (not counted: every PostgreSQL process, background writers and anyone else's backends included) | ${r.floorPostgresMs.toFixed(2)} |

Lifecycle CPU / floor CPU (platform totals): **${(platformMs / floorMs).toFixed(2)}x**, less the idle cost
**${(platformAboveIdleMs / floorMs).toFixed(2)}x** (target <= 2x). PostgreSQL counts in the totals by the backends
of the run's database (pg_stat_activity), its WAL writer and checkpointer left out; its every-process row is shown
for a quiet machine, where it is the whole cost. RabbitMQ and Redis are read from their processes: on a machine
shared with other work they count that work too.

${operationsReport(r, platformMs, floorMs)}
${r.profileDir ? `\nCPU profiles: ${r.profileDir} (\`node bench/dist/profile-top.js ${r.profileDir}\`).\n` : ''}`;
}
