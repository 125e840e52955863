import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { testEnv, waitFor } from '@bm/platform/testing';
import { WEBHOOK_EVENTS } from '@bm/contracts';
import { phones } from '../support/campaigns';
import { ADMIN_TOKEN, Cluster, type ServiceName } from './cluster';

/*
 * The fault suite: a campaign, a stream of single sends and the sandbox's status webhooks run while every
 * service in turn is killed with SIGKILL and started again. Afterwards every accepted send and every campaign
 * recipient has ended exactly once (the sandbox received each at most once), and every event the services
 * committed reached the client's receiver. `FAULTS=full` (pnpm test:faults) adds a larger campaign and
 * outages of RabbitMQ, PostgreSQL and Redis, which touch the machine's shared services: never in parallel
 * with other work.
 */
const FULL = process.env.FAULTS === 'full';
const RECIPIENTS = FULL ? 5_000 : 400;
const KILLED: ServiceName[] = ['gateway', 'messaging', 'campaign', 'webhook-ingress', 'webhook-dispatcher'];

/** An outage of one of the machine's shared services (full form only), with how to end it. */
interface Outage {
  fault: string;
  stop: string;
  start: string;
  /** Whether GET /api/health must report it (database and cache are among its checks; the broker is not). */
  inHealth: boolean;
}

const PG = 'pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main';
const OUTAGES: Outage[] = [
  {
    fault: 'RabbitMQ restarted',
    stop: 'rabbitmqctl stop_app',
    start: 'rabbitmqctl start_app',
    inHealth: false,
  },
  { fault: 'PostgreSQL stopped 10 s', stop: `${PG} stop -m fast`, start: `${PG} start`, inHealth: true },
  {
    fault: 'Redis stopped 10 s',
    stop: 'redis-cli shutdown nosave',
    start:
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no ' +
      '--dir /var/lib/redis --logfile /var/log/redis/ci.log',
    inHealth: true,
  },
];

function sh(command: string): void {
  const result = spawnSync('bash', ['-c', command], { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} failed`);
}

const cluster = new Cluster();
const received = new Map<string, number>();
const receiver = createServer((req: IncomingMessage, res) => {
  const id = String(req.headers['x-webhook-id'] ?? '');
  req.resume();
  req.on('end', () => {
    received.set(id, (received.get(id) ?? 0) + 1);
    res.writeHead(200).end();
  });
});

beforeAll(async () => {
  const env = testEnv();
  const migrated = spawnSync(process.execPath, [path.join(__dirname, '../../scripts/dist/migrate-all.js')], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  if (migrated.status !== 0) throw new Error('migrations failed');
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await cluster.start();
}, 120_000);

afterAll(async () => {
  await cluster.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

async function call(url: string, method: string, auth: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json().catch(() => ({}))) as { data?: Record<string, unknown> },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One query on its own connection: the full form stops PostgreSQL, which would break a kept one. */
async function query<R extends object>(sql: string, params: unknown[]): Promise<R[]> {
  const db = new Client({ connectionString: testEnv().DATABASE_URL });
  db.on('error', () => undefined);
  await db.connect();
  try {
    return (await db.query<R>(sql, params)).rows;
  } finally {
    await db.end().catch(() => undefined);
  }
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return Number((await query<{ n: string }>(sql, params))[0].n);
}

it(
  'loses and doubles nothing while each service in turn is killed and restarted',
  async () => {
    const gateway = () => cluster.url('gateway');
    const admin = (method: string, p: string, body?: unknown) =>
      call(`${gateway()}${p}`, method, ADMIN_TOKEN, body);
    const tenant = (await admin('POST', '/admin/v1/tenants', { name: 'faults', plan: 'unlimited' })).body
      .data!;
    const key = (await admin('POST', `/admin/v1/tenants/${tenant.tenant_id as number}/api-keys`)).body.data!
      .api_key as string;
    const suffix = String(Date.now()).slice(-9);
    const account = await admin('POST', `/admin/v1/tenants/${tenant.tenant_id as number}/channel-accounts`, {
      phone_number_id: `5${suffix}`,
      waba_id: `4${suffix}`,
      display_phone_number: '15550001234',
      access_token: 'fault-token',
      tier: 'TIER_100K',
      throughput_per_second: 200,
    });
    const accountId = account.body.data!.channel_account_id as string;
    const api = (method: string, p: string, body?: unknown) => call(`${gateway()}${p}`, method, key, body);
    const { port } = receiver.address() as { port: number };
    expect(
      (await api('PUT', '/api/v1/webhooks/settings', { url: `http://127.0.0.1:${port}/hook` })).status,
    ).toBe(200);

    const campaignPhones = phones(RECIPIENTS);
    const created = await api('POST', '/api/v1/campaigns', {
      channel_account_id: accountId,
      message_type: 'template',
      template_name: 'hello_world',
      recipients: campaignPhones.map((phone) => ({ phone })),
    });
    expect(created.status).toBe(202);
    const campaignId = created.body.data!.campaign_id as string;

    // Single sends all along; a refusal while the gateway or messaging is down was never accepted.
    const accepted = new Map<number, string>();
    let sending = true;
    const stream = (async () => {
      while (sending) {
        const phone = phones(1)[0];
        const res = await api('POST', '/api/v1/messages/send', {
          channel_account_id: accountId,
          phone,
          message_type: 'template',
          data: { name: 'hello_world' },
        }).catch(() => undefined);
        if (res?.status === 202) accepted.set(res.body.data!.message_log_id as number, phone);
        await sleep(40);
      }
    })();

    const faults: string[] = [];
    for (const name of KILLED) {
      await sleep(1_000);
      await cluster.kill(name);
      await sleep(500);
      await cluster.startService(name);
      faults.push(`kill -9 ${name}, restarted`);
    }
    for (const outage of FULL ? OUTAGES : []) {
      await sleep(2_000);
      sh(outage.stop);
      let degraded = false;
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        const health = await fetch(`${gateway()}/api/health`).catch(() => undefined);
        degraded ||= health?.status === 503;
        await sleep(500);
      }
      sh(outage.start);
      await waitFor(
        async () => (await fetch(`${gateway()}/api/health`).catch(() => undefined))?.status === 200,
        {
          timeoutMs: 60_000,
          what: `healthy after: ${outage.fault}`,
        },
      );
      if (outage.inHealth)
        expect({ fault: outage.fault, degraded }).toEqual({ fault: outage.fault, degraded: true });
      faults.push(`${outage.fault}${outage.inHealth ? ' (/api/health degraded, then healthy)' : ''}`);
    }
    await sleep(1_000);
    sending = false;
    await stream;

    // Everything settles: the campaign completes, every accepted send reaches a final status.
    await waitFor(
      async () =>
        (await api('GET', `/api/v1/campaigns/${campaignId}`)).body.data?.status === 'completed' || undefined,
      { timeoutMs: 120_000, what: 'campaign completed' },
    );
    const ids = [...accepted.keys()];
    await waitFor(
      async () =>
        (await count(
          `SELECT count(*) AS n FROM messaging.message_logs WHERE id = ANY($1::bigint[])
             AND status IN ('sent', 'delivered', 'read', 'failed')`,
          [ids],
        )) === ids.length || undefined,
      { timeoutMs: 60_000, what: 'every accepted send final' },
    );

    // Exactly once at the upstream: no phone received two sends.
    const sends = (await (await fetch(`${cluster.url('upstream-sandbox')}/_sandbox/sends`)).json()) as {
      data: Array<{ body: { to: string }; result: string }>;
    };
    const perPhone = new Map<string, number>();
    for (const s of sends.data)
      if (s.result === 'accepted') perPhone.set(s.body.to, (perPhone.get(s.body.to) ?? 0) + 1);
    const doubled = [...perPhone.entries()].filter(([, n]) => n > 1).map(([phone]) => phone);
    const duplicated = doubled.length;

    const campaign = (await api('GET', `/api/v1/campaigns/${campaignId}`)).body.data!;
    const recipientsLost =
      (campaign.total_count as number) - (campaign.sent_count as number) - (campaign.failed_count as number);
    const sendsLost =
      ids.length -
      (await count(
        `SELECT count(*) AS n FROM messaging.message_logs WHERE id = ANY($1::bigint[]) AND status <> 'queued'`,
        [ids],
      ));

    // Every event the services committed reached the receiver at least once.
    const committed = (
      await query<{ message_id: string }>(
        // This tenant's events (the run's other tests share the database, with tenants of their own).
        `SELECT message_id FROM messaging.outbox
          WHERE routing_key = ANY($1::text[]) AND (payload->>'tenant_id')::int = $2
         UNION ALL SELECT message_id FROM campaign.outbox
          WHERE routing_key = ANY($1::text[]) AND (payload->>'tenant_id')::int = $2`,
        [[...WEBHOOK_EVENTS], tenant.tenant_id],
      )
    ).map((r) => `evt_${r.message_id}`);
    const missing = await waitFor(
      () => {
        const gaps = committed.filter((id) => !received.has(id));
        return gaps.length === 0 ? gaps : undefined;
      },
      { timeoutMs: 60_000, what: 'every committed event at the receiver' },
    ).catch(() => committed.filter((id) => !received.has(id)));

    process.stdout.write(
      `\nfault suite (${FULL ? 'full' : 'short'}): ${RECIPIENTS} campaign recipients, ${ids.length} single sends, ` +
        `${committed.length} committed events\n| fault injected | lost | duplicated |\n|---|---|---|\n` +
        faults.map((f) => `| ${f} | | |`).join('\n') +
        `\n| **all of the above** (sends ${sendsLost}, recipients ${recipientsLost}, events ${missing.length}) | ` +
        `**${sendsLost + recipientsLost + missing.length}** | **${duplicated}** |\n`,
    );
    if (doubled.length > 0) process.stdout.write(`phones sent twice: ${doubled.join(', ')}\n`);
    expect({ sendsLost, recipientsLost, eventsMissing: missing.length, duplicated }).toEqual({
      sendsLost: 0,
      recipientsLost: 0,
      eventsMissing: 0,
      duplicated: 0,
    });
    expect(campaign.total_count).toBe(RECIPIENTS);
    expect(ids.length).toBeGreaterThan(20);
  },
  FULL ? 900_000 : 300_000,
);
