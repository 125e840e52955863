import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import amqp from 'amqplib';
import { Client } from 'pg';
import { ulid } from 'ulidx';
import { DIRECT_STATUS_ROUTING_KEY, DOMAIN_EVENTS } from '@bm/contracts';
import {
  forkServer,
  freePort,
  freshDatabase,
  startService,
  stop,
  waitHealthy,
  ROOT,
  INTERNAL_TOKEN,
  DATABASE_URL,
  postJson,
} from './harness';

const APP_SECRET = 'bench-app-secret';
const AMQP_URL = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const AMQP_PREFIX = 'bench.ingress';
// A database of its own: another benchmark running at the same time would otherwise relay this one's outbox rows
// to its own exchange (every messaging instance on a database publishes that database's outbox).
const INGRESS_DATABASE_URL =
  process.env.BENCH_INGRESS_DATABASE_URL ??
  (() => {
    const url = new URL(DATABASE_URL);
    url.pathname = `${url.pathname}_ingress`;
    return url.toString();
  })();

export interface IngressPhase {
  name: string;
  batch: number;
  /** Requests paced to this many items per second; as fast as 200s come back when absent. */
  ratePerSecond?: number;
  items: number;
  requests: number;
  /** Answers other than 200, and connection errors. */
  failures: number;
  loadSeconds: number;
  ackedPerSecond: number;
  /** First acknowledgement to the last status visible: the rate the whole path applied them. */
  appliedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Acknowledged items whose status change was never seen (within the deadline). */
  missing: number;
}

/** A saturated phase against the baseline receiver: the same signed webhooks, nothing behind the 200. */
export interface BaselinePhase {
  name: string;
  batch: number;
  items: number;
  requests: number;
  failures: number;
  loadSeconds: number;
  ackedPerSecond: number;
}

export interface IngressBenchResult {
  connections: number;
  durationSeconds: number;
  /** Bare Express 5 + HMAC check + insert of the raw body, per saturated batch size. */
  baselines: BaselinePhase[];
  phases: IngressPhase[];
  /** One-minute load average before and after: on a shared machine, what else competed for the cores. */
  loadAverage: [number, number];
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface Account {
  id: string;
  tenantId: number;
  phoneNumberId: string;
  wabaId: string;
}

/** A connected number and `count` messages of it already `sent`, each with its provider message id. */
async function seedMessages(db: Client, account: Account, count: number) {
  const prefix = `wamid.bench.${ulid()}.`;
  const rows = await db.query<{ id: string; provider_message_id: string }>(
    `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
       conversation_category, status, provider_message_id, sent_at)
     SELECT $1, $2, '14155550100', 'text', '{"text":"Your order has shipped."}', 'service', 'sent', $3 || g, now()
       FROM generate_series(1, $4) g
     RETURNING id, provider_message_id`,
    [account.tenantId, account.id, prefix, count],
  );
  return rows.rows.map((r) => ({ id: Number(r.id), wamid: r.provider_message_id }));
}

async function seedAccount(db: Client): Promise<Account> {
  const suffix = String(Date.now()).slice(-9);
  const account = {
    id: ulid(),
    tenantId: 800_000_000 + Math.floor(Math.random() * 100_000_000),
    phoneNumberId: `7${suffix}`,
    wabaId: `6${suffix}`,
  };
  // Never used to send: the benchmark only reports statuses of messages it seeds as sent.
  await db.query(
    `INSERT INTO messaging.channel_accounts (id, tenant_id, phone_number_id, waba_id, business_id,
       display_phone_number, access_token_sealed, tier, throughput_per_second)
     VALUES ($1, $2, $3, $4, $4, '15550009999', 'unused', 'TIER_UNLIMITED', 1000)`,
    [account.id, account.tenantId, account.phoneNumberId, account.wabaId],
  );
  return account;
}

/** A signed upstream webhook reporting `delivered` for each message (UPSTREAM-REFERENCE.md "Webhooks"). */
function statusWebhook(account: Account, wamids: string[]): { body: Buffer; signature: string } {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const body = Buffer.from(
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: account.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550009999', phone_number_id: account.phoneNumberId },
                statuses: wamids.map((id) => ({
                  id,
                  status: 'delivered',
                  timestamp,
                  recipient_id: '14155550100',
                  conversation: { id: '72b14d6b0f0d2bbf4d5b2b5b3b6d7a11', origin: { type: 'utility' } },
                  pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
                })),
              },
            },
          ],
        },
      ],
    }),
  );
  return { body, signature: `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}` };
}

const post = (agent: Agent, url: URL, body: Buffer, signature: string) =>
  postJson(agent, url, body, { 'x-hub-signature-256': signature }).then((answer) => answer.status);

/** Watches `message.status_updated` on the messaging exchange (alone or in batches): when each message's `delivered` was seen. */
async function watchStatuses(seen: Map<number, number>) {
  const connection = await amqp.connect(AMQP_URL);
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  const keys = [
    DOMAIN_EVENTS.messageStatusUpdated,
    DIRECT_STATUS_ROUTING_KEY,
    DOMAIN_EVENTS.messageStatusesUpdated,
  ];
  for (const key of keys) await channel.bindQueue(queue, `${AMQP_PREFIX}.events`, key);
  type Event = { message_log_id: number; status: string };
  await channel.consume(
    queue,
    (msg) => {
      if (!msg) return;
      const at = Date.now();
      const body = JSON.parse(msg.content.toString('utf8')) as Event & { events?: Array<{ event: Event }> };
      // A batch of status events (message.statuses_updated) holds each under `event`.
      const events =
        msg.fields.routingKey === DOMAIN_EVENTS.messageStatusesUpdated ? body.events! : [{ event: body }];
      for (const { event } of events)
        if (event.status === 'delivered' && !seen.has(event.message_log_id))
          seen.set(event.message_log_id, at);
    },
    { noAck: true },
  );
  return { close: () => connection.close() };
}

interface PhaseLoad {
  name: string;
  batch: number;
  connections: number;
  durationSeconds: number;
  ratePerSecond?: number;
}

interface SignedWebhook {
  batch: Array<{ id: number; wamid: string }>;
  body: Buffer;
  signature: string;
}

/** The messages' statuses as signed webhooks of `batch` items each (a remainder short of a batch is left out). */
function signedWebhooks(account: Account, messages: SignedWebhook['batch'], batch: number): SignedWebhook[] {
  const webhooks: SignedWebhook[] = [];
  for (let i = 0; i + batch <= messages.length; i += batch) {
    const items = messages.slice(i, i + batch);
    webhooks.push({
      batch: items,
      ...statusWebhook(
        account,
        items.map((m) => m.wamid),
      ),
    });
  }
  return webhooks;
}

/** Seeded messages of a saturated phase: enough at a generous rate; a phase that exhausts them ends early. */
const saturatedCapacity = () => Number(process.env.BENCH_INGRESS_MAX_ITEMS ?? 60_000);

/**
 * `connections` loops post the signed webhooks, for the duration or until they run out (paced to the phase's rate
 * if it has one), noting when each item was acknowledged with a 200.
 */
async function postWebhooks(url: URL, webhooks: SignedWebhook[], load: PhaseLoad) {
  const agent = new Agent({ keepAlive: true, maxSockets: load.connections });
  const acked = new Map<number, number>();
  let next = 0;
  let requests = 0;
  let failures = 0;
  const started = Date.now();
  const deadline = started + load.durationSeconds * 1000;
  const worker = async () => {
    for (;;) {
      const ticket = next;
      if (ticket >= webhooks.length || Date.now() >= deadline) return;
      next += 1;
      if (load.ratePerSecond) {
        const due = started + ((ticket * load.batch) / load.ratePerSecond) * 1000;
        if (due >= deadline) return;
        await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
      }
      const { batch, body, signature } = webhooks[ticket];
      requests += 1;
      try {
        const status = await post(agent, url, body, signature);
        const at = Date.now();
        if (status === 200) for (const m of batch) acked.set(m.id, at);
        else failures += 1;
      } catch {
        failures += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: load.connections }, worker));
  const loadSeconds = (Date.now() - started) / 1000;
  agent.destroy();
  return { acked, requests, failures, started, loadSeconds };
}

/** The same signed webhooks (of messages never seeded: the baseline looks nothing up) against the baseline. */
async function runBaselinePhase(url: URL, account: Account, load: PhaseLoad): Promise<BaselinePhase> {
  const prefix = `wamid.bench.${ulid()}.`;
  const messages = Array.from({ length: saturatedCapacity() }, (_, i) => ({
    id: i + 1,
    wamid: `${prefix}${i}`,
  }));
  const { acked, requests, failures, loadSeconds } = await postWebhooks(
    url,
    signedWebhooks(account, messages, load.batch),
    load,
  );
  return {
    name: load.name,
    batch: load.batch,
    items: acked.size,
    requests,
    failures,
    loadSeconds,
    ackedPerSecond: acked.size / loadSeconds,
  };
}

/**
 * `connections` loops post signed webhooks of `batch` statuses each, for the duration or until the seeded messages
 * run out, noting when each item was acknowledged; then waits until every acknowledged item's status change is
 * seen as a `message.status_updated` event.
 */
async function runPhase(
  url: URL,
  db: Client,
  account: Account,
  seen: Map<number, number>,
  load: PhaseLoad,
): Promise<IngressPhase> {
  const capacity = load.ratePerSecond
    ? Math.ceil(load.ratePerSecond * load.durationSeconds)
    : saturatedCapacity();
  const messages = await seedMessages(db, account, capacity);
  // Signed before the clock starts, so the load generator spends its share of the cores on the requests alone.
  const webhooks = signedWebhooks(account, messages, load.batch);
  const { acked, requests, failures, started, loadSeconds } = await postWebhooks(url, webhooks, load);
  const waitUntil = Date.now() + Number(process.env.BENCH_INGRESS_DRAIN_SECONDS ?? 300) * 1000;
  const visible = () => [...acked.keys()].filter((id) => seen.has(id)).length;
  while (visible() < acked.size && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 100));
  const latencies = [...acked.entries()]
    .filter(([id]) => seen.has(id))
    .map(([id, at]) => seen.get(id)! - at)
    .sort((a, b) => a - b);
  const lastSeen = Math.max(...[...acked.keys()].map((id) => seen.get(id) ?? 0));
  const missing = acked.size - latencies.length;
  return {
    name: load.name,
    batch: load.batch,
    ratePerSecond: load.ratePerSecond,
    items: acked.size,
    requests,
    failures,
    loadSeconds,
    ackedPerSecond: acked.size / loadSeconds,
    appliedPerSecond: latencies.length / ((lastSeen - started) / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length ? latencies[latencies.length - 1] : NaN,
    missing,
  };
}

/**
 * Signed status webhooks into webhook-ingress (its own process, defaults), split and published to messaging (its own
 * process) which applies them to seeded `sent` messages: items acknowledged per second at 64 connections with
 * batches of 1 and 50 statuses, and the latency from each item's 200 to its `message.status_updated` event (an
 * upper bound on "visible": the event leaves through messaging's outbox after the commit). Then the same at a
 * paced rate (the target's 3,000 items/s) to see the latency when the path is not saturated. First, the baseline:
 * the saturated phases' webhooks against a bare Express 5 receiver that checks the HMAC and inserts the raw body.
 */
export async function benchIngress(
  connections: number,
  durationSeconds: number,
): Promise<IngressBenchResult> {
  const loadBefore = loadavg()[0];
  const common = {
    DATABASE_URL: INGRESS_DATABASE_URL,
    AMQP_URL,
    AMQP_PREFIX,
    REDIS_PREFIX: 'bench.ingress:',
    INTERNAL_TOKEN,
    LOG_LEVEL: 'error',
  };
  await freshDatabase(INGRESS_DATABASE_URL);
  const migrate = spawnSync(process.execPath, [join(ROOT, 'scripts/dist/migrate-all.js')], {
    env: { ...process.env, ...common },
    stdio: 'inherit',
  });
  if (migrate.status !== 0) throw new Error('migrations failed');
  const [messagingPort, ingressPort] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [
    // No sandbox: nothing is sent, so no status arrives but the benchmark's own.
    startService('services/messaging/dist/start.js', {
      ...common,
      MESSAGING_PORT: String(messagingPort),
      UPSTREAM_BASE_URL: 'http://127.0.0.1:9',
    }),
    startService('services/webhook-ingress/dist/start.js', {
      ...common,
      INGRESS_PORT: String(ingressPort),
      INGRESS_APP_SECRET: APP_SECRET,
      MESSAGING_URL: `http://127.0.0.1:${messagingPort}`,
    }),
  ];
  const db = new Client({ connectionString: INGRESS_DATABASE_URL });
  await db.connect();
  const seen = new Map<number, number>();
  let watcher: { close(): Promise<void> } | undefined;
  try {
    await waitHealthy(`http://127.0.0.1:${messagingPort}/health/ready`);
    await waitHealthy(`http://127.0.0.1:${ingressPort}/health/ready`);
    watcher = await watchStatuses(seen);
    const account = await seedAccount(db);
    const url = new URL(`http://127.0.0.1:${ingressPort}/api/webhooks/channel`);
    const target = Number(process.env.BENCH_INGRESS_RATE ?? 3_000);
    const saturated: PhaseLoad[] = [
      { name: 'batches of 1', batch: 1, connections, durationSeconds },
      { name: 'batches of 50', batch: 50, connections, durationSeconds },
    ];
    // The baseline first, with the services up and idle: the same signed webhooks, connections and duration.
    const baselines: BaselinePhase[] = [];
    const receiver = await forkServer(join(__dirname, 'webhook-receiver-baseline.js'), {
      DATABASE_URL: INGRESS_DATABASE_URL,
      APP_SECRET,
    });
    try {
      const baselineUrl = new URL(`http://127.0.0.1:${receiver.port}/webhook`);
      await runBaselinePhase(baselineUrl, account, {
        name: 'warm-up',
        batch: 10,
        connections,
        durationSeconds: 2,
      });
      for (const load of saturated) {
        const phase = await runBaselinePhase(baselineUrl, account, load);
        process.stdout.write(`baseline ${JSON.stringify(phase)}\n`);
        baselines.push(phase);
      }
    } finally {
      await stop(receiver.child);
    }
    const loads: PhaseLoad[] = [
      ...saturated,
      { name: `batches of 1 at ${target}/s`, batch: 1, connections, durationSeconds, ratePerSecond: target },
      {
        name: `batches of 50 at ${target}/s`,
        batch: 50,
        connections,
        durationSeconds,
        ratePerSecond: target,
      },
    ];
    // A warm-up (JIT, pools, the account lookup's cache), not reported.
    await runPhase(url, db, account, seen, { name: 'warm-up', batch: 10, connections, durationSeconds: 2 });
    const phases: IngressPhase[] = [];
    for (const load of loads) {
      const phase = await runPhase(url, db, account, seen, load);
      process.stdout.write(`${JSON.stringify(phase)}\n`);
      phases.push(phase);
    }
    return { connections, durationSeconds, baselines, phases, loadAverage: [loadBefore, loadavg()[0]] };
  } finally {
    await watcher?.close().catch(() => undefined);
    await db.end();
    await Promise.all(children.map(stop));
  }
}

/** The BENCHMARKS.md section of a result. */
export function ingressReport(r: IngressBenchResult): string {
  const ms = (n: number) => (Number.isNaN(n) ? '-' : String(n));
  const row = (p: IngressPhase) =>
    `| ${p.name} | ${p.items} | ${p.failures} | ${p.loadSeconds.toFixed(1)} | **${Math.round(p.ackedPerSecond)}** | ${Math.round(p.appliedPerSecond)} | ${ms(p.p50Ms)} | **${ms(p.p99Ms)}** | ${ms(p.maxMs)} | ${p.missing} |`;
  // The saturated phase of the same batch size: the figure a baseline phase is the baseline of.
  const ingressOf = (b: BaselinePhase) =>
    r.phases.find((p) => p.batch === b.batch && p.ratePerSecond === undefined)?.ackedPerSecond ?? NaN;
  const ratioOf = (b: BaselinePhase) => ingressOf(b) / b.ackedPerSecond;
  const baselineRow = (b: BaselinePhase) =>
    `| ${b.name} | ${b.items} | ${b.failures} | ${b.loadSeconds.toFixed(1)} | ${Math.round(b.ackedPerSecond)} | **${Math.round(ingressOf(b))}** | **${ratioOf(b).toFixed(2)}x** |`;
  return `## Inbound status webhooks: acknowledged, then visible (target: >= 3,000 status items/s acknowledged; p99 ack to visible <= 1 s)

Signed \`delivered\` webhooks posted at ${r.connections} connections to webhook-ingress (its own process), which stores
each in its audit log and answers 200, then splits it into items published to messaging (its own process), which
applies them to seeded \`sent\` messages. Saturated phases post for ${r.durationSeconds} s or until their seeded messages
run out; paced phases post at the given item rate. Latency: from the item's 200 at the client to its
\`message.status_updated\` event reaching the benchmark (an upper bound on "visible": the event leaves messaging's
outbox after the status change committed). Applied/s: items over first request to last status visible.
Load average (1 min) before / after: ${r.loadAverage.map((l) => l.toFixed(1)).join(' / ')} on ${cpus().length} cores.

| load | items | non-200 | s | acked items/s | applied items/s | p50 ms | p99 ms | max ms | never seen |
|---|---|---|---|---|---|---|---|---|---|
${r.phases.map(row).join('\n')}

Baseline, measured first in the same run: a bare Express 5 server (its own process) that checks the same
HMAC-SHA256 signature over the raw body, inserts the raw body into a PostgreSQL table (one row per webhook, its own
commit) and answers 200: the least any durable webhook receiver must do. Loaded as the saturated phases are: the
same signed webhooks at ${r.connections} connections, for ${r.durationSeconds} s or until the same number of items runs out.

| acknowledged, saturated | baseline: items | non-200 | s | baseline: acked items/s | webhook-ingress: acked items/s | ratio ingress / baseline |
|---|---|---|---|---|---|---|
${r.baselines.map(baselineRow).join('\n')}

Ratio ingress / baseline, acked items/s: ${r.baselines.map((b) => `**${ratioOf(b).toFixed(2)}x** (${b.name})`).join(', ')}
`;
}
