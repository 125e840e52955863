import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchGateway } from './gateway.bench';
import { benchMessaging } from './messaging.bench';
import { benchDispatcher, dispatcherReport } from './dispatcher.bench';
import type { LoadResult } from './harness';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);

const row = (r: LoadResult) =>
  `| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p99Ms} | ${r.errors} | ${r.non2xx} |`;

async function main(): Promise<void> {
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  process.stdout.write(`machine: ${machine}\nconnections: ${CONNECTIONS}, ${DURATION}s per target\n\n`);
  const gw = await benchGateway(CONNECTIONS, DURATION);
  const msg = await benchMessaging(CONNECTIONS, DURATION);
  const dispatcher = await benchDispatcher(Number(process.env.BENCH_DISPATCHER_EVENTS ?? 10_000));
  const report = `# Benchmarks

Command: \`pnpm bench\` (environment: BENCH_CONNECTIONS=${CONNECTIONS}, BENCH_DURATION_SECONDS=${DURATION}).
Machine: ${machine}. Load generator (autocannon), servers, PostgreSQL and Redis share the machine;
absolute figures vary by about a third from run to run here, each ratio compares figures of the same run.
Run: ${new Date().toISOString()}.

## Gateway path vs bare Express (target: gateway >= 0.5x)

| target | req/s | p99 ms | errors | non-2xx |
|---|---|---|---|---|
${row(gw.baseline)}
${row(gw.gateway)}

Ratio gateway / baseline: **${gw.ratio.toFixed(2)}x**

## Single send vs insert + confirm-publish (target: >= 0.6x, p99 <= 100 ms)

The messaging API deployment (\`MESSAGING_ROLE=api\`) behind the gateway; the workers run as their own
deployment and drain the backlog afterwards (next section).

| target | req/s | p99 ms | errors | non-2xx |
|---|---|---|---|---|
${row(msg.baseline)}
${row(msg.send)}

Ratio send / baseline: **${msg.ratio.toFixed(2)}x**

## Queued to sent, sandbox uncapped (target: >= 1,000 msg/s)

The ${msg.drain.messages} messages the send benchmark left queued, drained by one worker process
(\`MESSAGING_ROLE=worker\`, started after the load): ${msg.drain.seconds.toFixed(1)} s,
**${Math.round(msg.drain.perSecond)} msg/s**. The path: outbox relay, RabbitMQ, batched claim, throughput limiter in
Redis, the sandbox over HTTP, batched status update with its events in PostgreSQL.

${dispatcherReport(dispatcher)}
`;
  process.stdout.write(`${report}\n`);
  writeFileSync(join(__dirname, '..', '..', 'BENCHMARKS.md'), report);
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
