import { cpus, totalmem } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchGateway } from './gateway.bench';
import { benchMessaging } from './messaging.bench';
import { benchDispatcher, dispatcherReport } from './dispatcher.bench';
import { benchIngress, ingressReport } from './ingress.bench';
import { benchCampaign, campaignReport } from './campaign.bench';
import { benchLifecycle, lifecycleReport } from './lifecycle.bench';
import { benchIdle, idleReport } from './idle.bench';
import { benchInbox, inboxReport } from './inbox.bench';
import { benchDashboard, dashboardReport } from './dashboard.bench';
import { benchStats, statsReport } from './stats.bench';
import type { LoadResult } from './harness';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROOT = join(__dirname, '..', '..');
/** The current figures, rewritten by every run; what was tried and why lives in docs/benchmarks-history.md. */
const REPORT = join(ROOT, 'docs', 'benchmarks.md');

const row = (r: LoadResult) =>
  `| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p99Ms} | ${r.errors} | ${r.non2xx} |`;

async function gatewaySection(): Promise<string> {
  const gw = await benchGateway(CONNECTIONS, DURATION);
  return `## Gateway path vs bare Express (target: gateway >= 0.5x)

| target | req/s | p99 ms | errors | non-2xx |
|---|---|---|---|---|
${row(gw.baseline)}
${row(gw.gateway)}

Ratio gateway / baseline: **${gw.ratio.toFixed(2)}x**

Same-shape floor (issue 22): a bare Node HTTP proxy hop (its own process, keep-alive pool, no authentication or
rate limit) in front of the same internal service, the headers the gateway would add given by the load generator.
The gateway's tenant is on a metered plan (each request counted in Redis) whose budget the load never spends. The
hop and the gateway are loaded in ${gw.rounds.length} rounds, back to back in alternating order (hop first, then
gateway first, ...), so that the machine's drift falls on both alike; their req/s below are the rounds' average.

| target | req/s | p99 ms | errors | non-2xx |
|---|---|---|---|---|
${row(gw.proxy)}

| ratio to the floor | measured | target |
|---|---|---|
| gateway req/s / bare proxy hop req/s | **${(gw.gateway.requestsPerSecond / gw.proxy.requestsPerSecond).toFixed(2)}x** | - |
| gateway CPU per forwarded request / bare proxy hop CPU per request (/proc utime+stime), the median of the rounds' ratios | **${gw.cpuRatio.toFixed(2)}x** (rounds: ${gw.rounds.map((r) => `${(r.gatewayCpuMs / r.proxyCpuMs).toFixed(2)}x`).join(', ')}; over all rounds ${gw.gatewayCpuMs.toFixed(3)} / ${gw.proxyCpuMs.toFixed(3)} ms: ${(gw.gatewayCpuMs / gw.proxyCpuMs).toFixed(2)}x) | <= 1.5x |
`;
}

async function messagingSection(): Promise<string> {
  const msg = await benchMessaging(CONNECTIONS, DURATION);
  return `## Single send vs insert + confirm-publish (target: >= 0.6x, p99 <= 100 ms)

The messaging API deployment (\`MESSAGING_ROLE=api\`) behind the gateway; the workers run as their own
deployment and drain the backlog afterwards (next section).

| target | req/s | p99 ms | errors | non-2xx |
|---|---|---|---|---|
${row(msg.baseline)}
${row(msg.send)}

Ratio send / baseline: **${msg.ratio.toFixed(2)}x**

Same-shape floor (issue 22), measured between the two: a bare Node HTTP proxy hop (its own process) in front of the
same insert + confirm-publish endpoint, the two-hop shape of gateway + messaging, same body and connections.

| target | req/s | p99 ms | errors | non-2xx |
|---|---|---|---|---|
${row(msg.sendFloor.load)}

| ratio to the floor | measured | target |
|---|---|---|
| send req/s / floor req/s | **${(msg.send.requestsPerSecond / msg.sendFloor.perSecond).toFixed(2)}x** | >= 0.7x |
| send p99 / floor p99 | **${(msg.send.p99Ms / (msg.sendFloor.p99Ms ?? NaN)).toFixed(2)}x** | <= 1.5x |
| gateway CPU per forwarded send / bare proxy hop CPU per request (/proc utime+stime) | **${(msg.gatewayCpuMs / msg.proxyCpuMs).toFixed(2)}x** (${msg.gatewayCpuMs.toFixed(3)} / ${msg.proxyCpuMs.toFixed(3)} ms) | <= 1.5x |

## Queued to sent, sandbox uncapped (target: >= 1,000 msg/s)

The ${msg.drain.messages} messages the send benchmark left queued, drained by one worker process
(\`MESSAGING_ROLE=worker\`, started after the load): ${msg.drain.seconds.toFixed(1)} s,
**${Math.round(msg.drain.perSecond)} msg/s**. The path: outbox relay, RabbitMQ, batched claim, throughput limiter in
Redis, the sandbox over HTTP, batched status update with its events in PostgreSQL.

Baseline: the sandbox's own ceiling, measured next in the same run and sandbox: one process POSTing the same
bodies (the worker's, rebuilt from those message logs) straight to \`/{version}/{phone_number_id}/messages\` with the
worker's HTTP client (messaging's \`CloudApiClient\`) and ${msg.ceiling.concurrency} calls in flight (its \`SEND_CONCURRENCY\`),
after a warm-up; the worker's start is inside its own time.

| target | messages | s | msg/s | not accepted |
|---|---|---|---|---|
| baseline: sandbox ceiling, one process, ${msg.ceiling.concurrency} in flight | ${msg.ceiling.messages} | ${msg.ceiling.seconds.toFixed(1)} | ${Math.round(msg.ceiling.perSecond)} | ${msg.ceiling.failures} |
| queued to sent, one worker | ${msg.drain.messages} | ${msg.drain.seconds.toFixed(1)} | ${Math.round(msg.drain.perSecond)} | - |

Ratio drain / sandbox ceiling: **${msg.drainRatio.toFixed(2)}x**

Same-shape floor (issue 22), measured last in the same sandbox: a minimal worker (its own process) consuming
${msg.drainFloor.operations} deliver commands queued before its clock starts, POSTing each body with a keep-alive pool,
${msg.drainFloor.concurrency} in flight, updating its row and acking: ${msg.drainFloor.seconds.toFixed(1)} s, ${Math.round(msg.drainFloor.perSecond)} msg/s,
${msg.drainFloor.failures} not accepted. Ratio drain / floor: **${(msg.drain.perSecond / msg.drainFloor.perSecond).toFixed(2)}x** (target >= 0.7x).
`;
}

/** Every benchmark by the name `pnpm bench <name>` runs it alone; `pnpm bench` runs them all in this order. */
const BENCHMARKS: Record<string, () => Promise<string>> = {
  gateway: gatewaySection,
  messaging: messagingSection,
  dispatcher: async () =>
    dispatcherReport(await benchDispatcher(Number(process.env.BENCH_DISPATCHER_EVENTS ?? 10_000))),
  ingress: async () => ingressReport(await benchIngress(CONNECTIONS, DURATION)),
  campaign: async () => campaignReport(await benchCampaign()),
  lifecycle: async () => lifecycleReport(await benchLifecycle()),
  idle: async () => idleReport(await benchIdle()),
  stats: async () => statsReport(await benchStats()),
  inbox: async () => inboxReport(await benchInbox()),
  dashboard: async () => dashboardReport(await benchDashboard()),
};

const begin = (name: string) => `<!-- bench:${name} -->`;
const end = (name: string) => `<!-- /bench:${name} -->`;

/** The sections of the current report, by name, so a partial run keeps the others' figures. */
function previousSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(REPORT)) return sections;
  const text = readFileSync(REPORT, 'utf8');
  for (const name of Object.keys(BENCHMARKS)) {
    const from = text.indexOf(begin(name));
    const to = text.indexOf(end(name));
    if (from >= 0 && to > from) sections.set(name, text.slice(from, to + end(name).length));
  }
  return sections;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

async function main(): Promise<void> {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((n) => !(n in BENCHMARKS));
  if (unknown.length > 0) {
    throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  }
  const names = requested.length > 0 ? requested : Object.keys(BENCHMARKS);
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  process.stdout.write(`machine: ${machine}\nconnections: ${CONNECTIONS}, ${DURATION}s per target\n\n`);
  const command = ['pnpm bench', ...requested].join(' ');
  const fresh = new Map<string, string>();
  for (const name of names) {
    const body = await BENCHMARKS[name]();
    // Every other BENCH_ setting given, so the figures can be reproduced.
    const tuned = Object.entries(process.env)
      .filter(([k]) => k.startsWith('BENCH_') && k !== 'BENCH_CONNECTIONS' && k !== 'BENCH_DURATION_SECONDS')
      .map(([k, v]) => `, ${k}=${v}`)
      .join('');
    const stamp = `Run: ${new Date().toISOString()} on ${machine} (\`${command}\`, BENCH_CONNECTIONS=${CONNECTIONS}, BENCH_DURATION_SECONDS=${DURATION}${tuned}).`;
    fresh.set(name, `${begin(name)}\n${body}\n${stamp}\n${end(name)}`);
    process.stdout.write(`${body}\n`);
  }
  // Read only now: another benchmark that finished while this one ran keeps its fresh section.
  const sections = new Map([...previousSections(), ...fresh]);
  const report = `# Benchmarks

The current figures of every benchmark, each beside a floor measured in the same run and its target, written by
\`pnpm bench\` itself: \`pnpm bench\` runs them all, \`pnpm bench <${Object.keys(BENCHMARKS).join('|')}>\` runs one and
rewrites only its section (each section ends with the command and time of the run that printed it). What was
tried, measured and why is in [benchmarks-history.md](benchmarks-history.md).

Load generator, servers, PostgreSQL, RabbitMQ and Redis share one machine (each section names it); absolute
figures vary by about a third from run to run there, so each ratio compares figures of the same run.

| benchmark | what it measures | last run |
|---|---|---|
${Object.keys(BENCHMARKS)
  .filter((name) => sections.has(name))
  .map((name) => {
    const section = sections.get(name) ?? '';
    const heading = /^## (.+)$/m.exec(section)?.[1] ?? name;
    const stamp = /^Run: (\S+)/m.exec(section)?.[1] ?? '-';
    return `| [\`pnpm bench ${name}\`](#${slug(heading)}) | ${heading} | ${stamp} |`;
  })
  .join('\n')}

${Object.keys(BENCHMARKS)
  .filter((name) => sections.has(name))
  .map((name) => sections.get(name))
  .join('\n\n')}
`;
  writeFileSync(REPORT, report);
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
