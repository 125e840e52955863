import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { forkServer, freePort, load, stop, waitHealthy, type LoadResult } from './harness';

const ROOT = join(__dirname, '..', '..');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/business_messaging_bench';

export interface MessagingBenchResult {
  baseline: LoadResult;
  send: LoadResult;
  ratio: number;
  drain: { messages: number; seconds: number; perSecond: number };
}

function startService(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [join(ROOT, script)], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
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

/** Drains a backlog of queued messages written straight into the tables, as a burst of accepted sends leaves it. */
async function measureDrain(db: Client, tenantId: number, accountId: string, count: number): Promise<MessagingBenchResult['drain']> {
  const started = Date.now();
  await db.query('BEGIN');
  const rows = await db.query<{ id: string }>(
    `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content, conversation_category, status)
     SELECT $1, $2, '1415' || lpad(g::text, 7, '0'), 'text', '{"text":"drain"}', 'SERVICE', 'queued' FROM generate_series(1, $3) g
     RETURNING id`,
    [tenantId, accountId, count],
  );
  await db.query(
    `INSERT INTO messaging.outbox (message_id, routing_key, payload)
     SELECT 'bench-drain-' || id, 'messaging.deliver', jsonb_build_object('message_log_id', id) FROM unnest($1::bigint[]) id`,
    [rows.rows.map((r) => r.id)],
  );
  await db.query('COMMIT');
  const ids = rows.rows.map((r) => r.id);
  for (;;) {
    const left = await db.query<{ n: string }>(`SELECT count(*) n FROM messaging.message_logs WHERE id = ANY($1::bigint[]) AND status = 'queued'`, [ids]);
    if (Number(left.rows[0].n) === 0) break;
    if (Date.now() - started > 120_000) throw new Error('drain did not finish within 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (Date.now() - started) / 1000;
  return { messages: count, seconds, perSecond: count / seconds };
}

/** POST /api/v1/messages/send (text, immediate) through the gateway, beside insert + confirm-publish; then the drain rate. */
export async function benchMessaging(connections: number, durationSeconds: number, drainCount: number): Promise<MessagingBenchResult> {
  const common = { DATABASE_URL, REDIS_PREFIX: 'bench:', AMQP_PREFIX: 'bench', ADMIN_TOKEN, INTERNAL_TOKEN, LOG_LEVEL: 'error' };
  if (spawnSync(process.execPath, [join(ROOT, 'scripts/dist/migrate-all.js')], { env: { ...process.env, ...common }, stdio: 'inherit' }).status !== 0) {
    throw new Error('migrations failed');
  }
  const [sandboxPort, messagingPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const children: ChildProcess[] = [
    startService('services/upstream-sandbox/dist/start.js', {
      ...common,
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DEFAULT_MPS: '0',
      SANDBOX_STATUS_DELAYS_MS: '',
      SANDBOX_FAULT_PATTERNS: 'false',
      SANDBOX_MAX_RECORDS: '1000',
    }),
    startService('services/messaging/dist/start.js', {
      ...common,
      MESSAGING_PORT: String(messagingPort),
      UPSTREAM_BASE_URL: `http://127.0.0.1:${sandboxPort}`,
    }),
    startService('services/gateway/dist/start.js', {
      ...common,
      GATEWAY_PORT: String(gatewayPort),
      MESSAGING_URL: `http://127.0.0.1:${messagingPort}`,
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
    const tenant = await admin<{ tenant_id: number }>(gatewayUrl, 'POST', '/admin/v1/tenants', { name: 'bench', plan: 'unlimited' });
    const key = await admin<{ api_key: string }>(gatewayUrl, 'POST', `/admin/v1/tenants/${tenant.tenant_id}/api-keys`);
    const suffix = String(Date.now()).slice(-9);
    const account = await admin<{ channel_account_id: string }>(gatewayUrl, 'POST', `/admin/v1/tenants/${tenant.tenant_id}/channel-accounts`, {
      phone_number_id: `9${suffix}`,
      waba_id: `8${suffix}`,
      display_phone_number: '15550009999',
      access_token: 'bench-token',
      tier: 'TIER_UNLIMITED',
      throughput_per_second: 1000,
    });
    const phone = '14155550100';
    await db.query(
      `INSERT INTO messaging.service_windows (channel_account_id, customer_phone, last_inbound_at) VALUES ($1, $2, now())`,
      [account.channel_account_id, phone],
    );
    const body = JSON.stringify({ channel_account_id: account.channel_account_id, phone, message_type: 'text', data: { text: 'Your order has shipped.' } });
    const post = { connections, method: 'POST' as const, body, headers: { 'content-type': 'application/json' } };

    await load('warm-up', `http://127.0.0.1:${baseline.port}/send`, { ...post, durationSeconds: 2 });
    const base = await load('Express + PostgreSQL insert + RabbitMQ confirm-publish', `http://127.0.0.1:${baseline.port}/send`, { ...post, durationSeconds });
    const authed = { ...post, headers: { ...post.headers, authorization: `Bearer ${key.api_key}` } };
    await load('warm-up', `${gatewayUrl}/api/v1/messages/send`, { ...authed, durationSeconds: 2 });
    const send = await load('POST /api/v1/messages/send (text) through the gateway', `${gatewayUrl}/api/v1/messages/send`, { ...authed, durationSeconds });
    await waitQueuedDrained(db, account.channel_account_id);
    const drain = await measureDrain(db, tenant.tenant_id, account.channel_account_id, drainCount);
    return { baseline: base, send, ratio: send.requestsPerSecond / base.requestsPerSecond, drain };
  } finally {
    await db.end();
    await stop(baseline.child);
    await Promise.all(children.map(stop));
  }
}

async function waitQueuedDrained(db: Client, accountId: string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    const left = await db.query<{ n: string }>(`SELECT count(*) n FROM messaging.message_logs WHERE channel_account_id = $1 AND status = 'queued'`, [accountId]);
    if (Number(left.rows[0].n) === 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}
