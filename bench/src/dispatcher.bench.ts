import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ulid } from 'ulidx';
import { AmqpClient, createDataSource, createLogger, createOutboxTable, OutboxRelay } from '@bm/platform';
import { freePort, stop, waitHealthy } from './harness';

const ROOT = join(__dirname, '..', '..');
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/business_messaging_bench';
const PRODUCER_SCHEMA = 'bench_producer';

export interface DispatcherPhase {
  name: string;
  events: number;
  seconds: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface DispatcherBenchResult {
  steady: DispatcherPhase;
  /** The same load while another tenant's endpoint never answers. */
  withHangingTenant: DispatcherPhase;
  /** withHangingTenant.p99Ms / steady.p99Ms (target: <= 2). */
  p99Ratio: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** A local receiver that notes when each message_log_id arrived; `hang` never answers. */
async function receiver(
  received: Map<number, number>,
  hang: boolean,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const id = /"message_log_id":(\d+)/.exec(body);
      if (id && !received.has(Number(id[1]))) received.set(Number(id[1]), Date.now());
      if (!hang) res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

async function setEndpoint(dispatcherUrl: string, tenantId: number, url: string): Promise<void> {
  const res = await fetch(`${dispatcherUrl}/api/v1/webhooks/settings`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      'x-internal-token': INTERNAL_TOKEN,
      'x-bm-tenant-id': String(tenantId),
    },
    body: JSON.stringify({ url }),
  });
  if (!res.ok) throw new Error(`settings: ${res.status} ${await res.text()}`);
}

interface PhaseLoad {
  /** Tenants whose deliveries are measured; events go to them in turn. */
  tenants: number[];
  events: number;
  /** A tenant whose endpoint hangs, and how many events it gets meanwhile. */
  hanging?: { tenantId: number; events: number };
  /** Events committed per second; as fast as the database takes them when absent. */
  ratePerSecond?: number;
}

/**
 * Commits message.status_updated events in a producer's outbox, 100 per transaction in one multi-row insert (as a
 * producer with group commit writes them); the platform relay publishes them; the receiver notes when each
 * measured one arrives. Latency is from the commit of its transaction to its receipt.
 */
async function runPhase(
  name: string,
  producer: ReturnType<typeof createDataSource>,
  load: PhaseLoad,
  received: Map<number, number>,
): Promise<DispatcherPhase> {
  const committed = new Map<number, number>();
  const started = Date.now();
  for (let next = 1; next <= load.events; next += 100) {
    const ids = Array.from({ length: Math.min(100, load.events - next + 1) }, (_, i) => next + i);
    const hanging = load.hanging;
    const events = [
      ...ids.map((i) => ({ tenantId: load.tenants[i % load.tenants.length], id: i })),
      ...(hanging
        ? ids
            .filter((i) => i <= hanging.events)
            .map((i) => ({ tenantId: hanging.tenantId, id: 1_000_000_000 + i }))
        : []),
    ].map((e) => ({ eventId: ulid(), ...e }));
    await producer.query(
      `INSERT INTO ${PRODUCER_SCHEMA}.outbox (message_id, routing_key, payload)
       SELECT m, 'message.status_updated', p::jsonb FROM unnest($1::text[], $2::text[]) AS x(m, p)`,
      [
        events.map((e) => e.eventId),
        events.map((e) => JSON.stringify(statusEvent(e.eventId, e.tenantId, e.id))),
      ],
    );
    const at = Date.now();
    for (const i of ids) committed.set(i, at);
    if (load.ratePerSecond) {
      const due = started + ((next + 99) / load.ratePerSecond) * 1000;
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
    }
  }
  while (received.size < load.events) {
    if (Date.now() - started > 300_000) throw new Error(`${name}: ${received.size}/${load.events} in 300 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const latencies = [...received.entries()].map(([i, at]) => at - committed.get(i)!).sort((a, b) => a - b);
  const seconds = (Math.max(...received.values()) - started) / 1000;
  return {
    name,
    events: load.events,
    seconds,
    deliveriesPerSecond: load.events / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

function statusEvent(eventId: string, tenantId: number, messageLogId: number) {
  return {
    event_id: eventId,
    tenant_id: tenantId,
    occurred_at: new Date().toISOString(),
    message_log_id: messageLogId,
    channel_account_id: 'bench',
    status: 'sent',
    previous_status: 'queued',
    to_phone: '14155550100',
    provider_message_id: `wamid.${eventId}`,
    error_code: null,
    error_message: null,
    campaign_id: null,
    campaign_recipient_id: null,
  };
}

export interface DispatcherBenchOptions {
  /** Tenants sharing the measured load, each with its endpoint on the same local receiver (default 10). */
  tenants?: number;
  /** Commit rate; by default as fast as the database takes the outbox inserts (a burst). */
  ratePerSecond?: number;
}

/**
 * Outbox commit to webhook receipt through the platform relay, RabbitMQ and one dispatcher process with its
 * defaults: `events` events to a local receiver, then the same load while another tenant's endpoint hangs (it gets
 * a tenth as many events, each holding a connection for the full 10 s timeout).
 */
export async function benchDispatcher(
  events = 10_000,
  options: DispatcherBenchOptions = {},
): Promise<DispatcherBenchResult> {
  const env = {
    DATABASE_URL,
    AMQP_PREFIX: 'bench.dispatcher',
    REDIS_PREFIX: 'bench:',
    INTERNAL_TOKEN,
    LOG_LEVEL: 'error',
  };
  const migrate = spawnSync(process.execPath, [join(ROOT, 'scripts/dist/migrate-all.js')], {
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (migrate.status !== 0) throw new Error('migrations failed');
  const logger = createLogger('bench', 'error');
  const producer = createDataSource({
    url: DATABASE_URL,
    schema: PRODUCER_SCHEMA,
    entities: [],
    migrations: [],
  });
  await producer.initialize();
  await producer.query(`DROP SCHEMA IF EXISTS ${PRODUCER_SCHEMA} CASCADE`);
  await producer.query(`CREATE SCHEMA ${PRODUCER_SCHEMA}`);
  const runner = producer.createQueryRunner();
  await createOutboxTable(runner, PRODUCER_SCHEMA);
  await runner.release();
  // Deliveries a previous, interrupted run left pending would compete with this one.
  await producer.query(`UPDATE dispatcher.deliveries SET status = 'failed' WHERE status = 'pending'`);
  const amqp = new AmqpClient({ url: 'amqp://guest:guest@127.0.0.1:5672', prefix: env.AMQP_PREFIX, logger });
  const relay = new OutboxRelay({ dataSource: producer, schema: PRODUCER_SCHEMA, amqp, logger });
  const port = await freePort();
  const dispatcherUrl = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROF=<dir> writes a CPU profile of the dispatcher, to look for where the time goes.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const dispatcher: ChildProcess = spawn(
    process.execPath,
    [...profile, join(ROOT, 'services/webhook-dispatcher/dist/start.js')],
    {
      env: {
        ...process.env,
        ...env,
        DISPATCHER_PORT: String(port),
        DISPATCHER_ALLOW_HTTP: 'true',
        DISPATCHER_ALLOWED_HOSTS: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const servers: Server[] = [];
  try {
    await waitHealthy(`${dispatcherUrl}/health/ready`);
    await amqp.connect();
    relay.start();
    const tenant = () => 900_000_000 + Math.floor(Math.random() * 1_000_000_000);
    const tenantsOn = async (url: string) => {
      const ids = Array.from({ length: options.tenants ?? 10 }, tenant);
      for (const id of ids) await setEndpoint(dispatcherUrl, id, url);
      return ids;
    };
    // A warm-up (JIT, connection pools, caches), not reported.
    const warmReceived = new Map<number, number>();
    const warmReceiver = await receiver(warmReceived, false);
    servers.push(warmReceiver.server);
    const warmUp = { tenants: await tenantsOn(warmReceiver.url), events: Math.ceil(events / 10) };
    await runPhase('warm-up', producer, warmUp, warmReceived);

    const steadyReceived = new Map<number, number>();
    const steadyReceiver = await receiver(steadyReceived, false);
    servers.push(steadyReceiver.server);
    const steady = await runPhase(
      'alone',
      producer,
      { tenants: await tenantsOn(steadyReceiver.url), events, ratePerSecond: options.ratePerSecond },
      steadyReceived,
    );

    const received = new Map<number, number>();
    const otherReceiver = await receiver(received, false);
    const hanging = await receiver(new Map(), true);
    servers.push(otherReceiver.server, hanging.server);
    const hangingTenant = tenant();
    await setEndpoint(dispatcherUrl, hangingTenant, hanging.url);
    const withHangingTenant = await runPhase(
      'beside a tenant whose endpoint hangs',
      producer,
      {
        tenants: await tenantsOn(otherReceiver.url),
        events,
        ratePerSecond: options.ratePerSecond,
        hanging: { tenantId: hangingTenant, events: Math.ceil(events / 10) },
      },
      received,
    );
    return { steady, withHangingTenant, p99Ratio: withHangingTenant.p99Ms / steady.p99Ms };
  } finally {
    await relay.stop();
    await amqp.close();
    await stop(dispatcher);
    await producer.query(`UPDATE dispatcher.deliveries SET status = 'failed' WHERE status = 'pending'`);
    await producer.destroy();
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/** The BENCHMARKS.md section of a result. */
export function dispatcherReport(r: DispatcherBenchResult): string {
  const row = (p: DispatcherPhase) =>
    `| ${p.name} | ${p.events} | ${p.seconds.toFixed(1)} | ${Math.round(p.deliveriesPerSecond)} | ${p.p50Ms} | ${p.p99Ms} |`;
  return `## Outbound webhooks: outbox commit to receipt (target: >= 1,000 deliveries/s; p99 with a hanging tenant <= 2x)

| load | events | s | deliveries/s | p50 ms | p99 ms |
|---|---|---|---|---|---|
${row(r.steady)}
${row(r.withHangingTenant)}

p99 ratio (hanging / alone): **${r.p99Ratio.toFixed(2)}x**
`;
}
