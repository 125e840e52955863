import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  forkServer,
  freePort,
  load,
  startService,
  stop,
  waitHealthy,
  type LoadResult,
  ADMIN_TOKEN,
  UNCAPPED_THROUGHPUT,
  BENCH_ENV,
  DATABASE_URL,
  migrateBenchDatabase,
  sandboxCeiling,
  type SandboxCeiling,
} from './harness';
import { cpuWindow, fixedGroup } from './cpu';
import { cpuPerOperation, drainFloor, PROXY, sendFloor, type FloorFigures } from './floors';

export interface MessagingBenchResult {
  baseline: LoadResult;
  send: LoadResult;
  ratio: number;
  drain: { messages: number; seconds: number; perSecond: number };
  /** The drain's baseline: the same bodies POSTed straight to the same sandbox, after the drain. */
  ceiling: SandboxCeiling;
  drainRatio: number;
  /** The same-shape floor of the send: a bare proxy hop in front of the insert + confirm-publish endpoint. */
  sendFloor: FloorFigures & { load: LoadResult };
  /** The gateway's CPU per forwarded send, and the bare proxy hop's per request in the floor. */
  gatewayCpuMs: number;
  proxyCpuMs: number;
  /** The same-shape floor of the drain: the minimal worker, same sandbox, same count, same concurrency. */
  drainFloor: FloorFigures & { seconds: number; failures: number; concurrency: number };
}

async function admin<T>(gatewayUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Time for a worker to take every queued message of the account to `sent` (or failed); a bound keeps it finite. */
async function measureDrain(
  db: Client,
  accountId: string,
  startWorker: () => ChildProcess,
): Promise<MessagingBenchResult['drain'] & { worker: ChildProcess }> {
  const queued = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          `SELECT count(*) n FROM messaging.message_logs WHERE channel_account_id = $1 AND status = 'queued'`,
          [accountId],
        )
      ).rows[0].n,
    );
  const messages = await queued();
  const started = Date.now();
  const worker = startWorker();
  while ((await queued()) > 0) {
    if (Date.now() - started > 180_000) throw new Error('the backlog did not drain within 180 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (Date.now() - started) / 1000;
  return { messages, seconds, perSecond: messages / seconds, worker };
}

/**
 * POST /api/v1/messages/send (text, immediate) through the gateway, beside insert + confirm-publish; then the drain
 * rate, beside the sandbox's own ceiling for the same sends.
 */
export async function benchMessaging(
  connections: number,
  durationSeconds: number,
): Promise<MessagingBenchResult> {
  const common = BENCH_ENV;
  await migrateBenchDatabase();
  const [sandboxPort, messagingPort, workerPort, gatewayPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const messagingEnv = { ...common, UPSTREAM_BASE_URL: `http://127.0.0.1:${sandboxPort}` };
  const sandbox = startService('services/upstream-sandbox/dist/start.js', {
    ...common,
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_DEFAULT_MPS: '0',
    SANDBOX_STATUS_DELAYS_MS: '',
    SANDBOX_FAULT_PATTERNS: 'false',
    SANDBOX_MAX_RECORDS: '1000',
  });
  const gateway = startService('services/gateway/dist/start.js', {
    ...common,
    GATEWAY_PORT: String(gatewayPort),
    MESSAGING_URL: `http://127.0.0.1:${messagingPort}`,
  });
  const children: ChildProcess[] = [
    sandbox,
    gateway,
    // The API deployment alone takes the sends; a worker deployment drains what they queued afterwards.
    startService('services/messaging/dist/start.js', {
      ...messagingEnv,
      MESSAGING_PORT: String(messagingPort),
      MESSAGING_ROLE: 'api',
    }),
  ];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const baseline = await forkServer(join(__dirname, 'insert-publish-baseline.js'), common);
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    await waitHealthy(`http://127.0.0.1:${sandboxPort}/health`);
    await waitHealthy(`http://127.0.0.1:${messagingPort}/health/ready`);
    await waitHealthy(`${gatewayUrl}/api/health`);
    const tenant = await admin<{ tenant_id: number }>(gatewayUrl, 'POST', '/admin/v1/tenants', {
      name: 'bench',
      plan: 'unlimited',
    });
    const key = await admin<{ api_key: string }>(
      gatewayUrl,
      'POST',
      `/admin/v1/tenants/${tenant.tenant_id}/api-keys`,
    );
    const suffix = String(Date.now()).slice(-9);
    const phoneNumberId = `9${suffix}`;
    const account = await admin<{ channel_account_id: string }>(
      gatewayUrl,
      'POST',
      `/admin/v1/tenants/${tenant.tenant_id}/channel-accounts`,
      {
        phone_number_id: phoneNumberId,
        waba_id: `8${suffix}`,
        display_phone_number: '15550009999',
        access_token: 'bench-token',
        tier: 'TIER_UNLIMITED',
        throughput_per_second: UNCAPPED_THROUGHPUT,
      },
    );
    const phone = '14155550100';
    await db.query(
      `INSERT INTO messaging.service_windows (channel_account_id, customer_phone, last_inbound_at) VALUES ($1, $2, now())`,
      [account.channel_account_id, phone],
    );
    const body = JSON.stringify({
      channel_account_id: account.channel_account_id,
      phone,
      message_type: 'text',
      data: { text: 'Your order has shipped.' },
    });
    const post = {
      connections,
      method: 'POST' as const,
      body,
      headers: { 'content-type': 'application/json' },
    };

    await load('warm-up', `http://127.0.0.1:${baseline.port}/send`, { ...post, durationSeconds: 2 });
    const base = await load(
      'Express + PostgreSQL insert + RabbitMQ confirm-publish',
      `http://127.0.0.1:${baseline.port}/send`,
      { ...post, durationSeconds },
    );
    // The same-shape floor: a bare proxy hop in front of the same endpoint, its CPU per request read from /proc.
    const floor = await sendFloor({ connections, durationSeconds, body });
    const authed = { ...post, headers: { ...post.headers, authorization: `Bearer ${key.api_key}` } };
    await load('warm-up', `${gatewayUrl}/api/v1/messages/send`, { ...authed, durationSeconds: 2 });
    const gatewayCpu = cpuWindow([fixedGroup('gateway', gateway.pid)]);
    const send = await load(
      'POST /api/v1/messages/send (text) through the gateway',
      `${gatewayUrl}/api/v1/messages/send`,
      { ...authed, durationSeconds },
    );
    const gatewayCpuMs = gatewayCpu.stop().groups[0].cpuMs / Math.max(1, send.requests);
    await stop(baseline.child);
    const drained = await measureDrain(db, account.channel_account_id, () =>
      startService('services/messaging/dist/start.js', {
        ...messagingEnv,
        MESSAGING_PORT: String(workerPort),
        MESSAGING_ROLE: 'worker',
      }),
    );
    children.push(drained.worker);
    const { worker, ...drain } = drained;
    // The worker is idle now; stopped, so the baseline has the cores it had.
    await stop(worker);
    const ceiling = await sandboxCeiling({
      workerEnv: messagingEnv,
      accountId: account.channel_account_id,
      phoneNumberId,
      accessToken: 'bench-token',
      messages: drain.messages,
    });
    const drainFloorFigures = await drainFloor({
      sandbox: { child: sandbox, url: `http://127.0.0.1:${sandboxPort}` },
      phoneNumberId,
      messages: drain.messages,
      concurrency: ceiling.concurrency,
    });
    return {
      baseline: base,
      send,
      ratio: send.requestsPerSecond / base.requestsPerSecond,
      drain,
      ceiling,
      drainRatio: drain.perSecond / ceiling.perSecond,
      sendFloor: floor,
      gatewayCpuMs,
      proxyCpuMs: cpuPerOperation(floor, PROXY),
      drainFloor: drainFloorFigures,
    };
  } finally {
    await db.end();
    await stop(baseline.child);
    await Promise.all(children.map(stop));
  }
}
