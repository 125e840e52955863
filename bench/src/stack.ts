import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { fixedGroup, type CpuGroup } from './cpu';
import {
  ADMIN_TOKEN,
  BENCH_ENV,
  BENCH_PREFIX,
  DATABASE_URL,
  freePort,
  migrateBenchDatabase,
  startService,
  stop,
  waitHealthy,
} from './harness';

/**
 * A database of the whole stack's own: every messaging instance relays its database's outbox, so a stack on the
 * shared bench database would publish another benchmark's events running meanwhile.
 */
export const STACK_DATABASE_URL = (() => {
  const url = new URL(DATABASE_URL);
  url.pathname = `${url.pathname}_stack`;
  return url.toString();
})();

export const STACK_APP_SECRET = 'bench-stack-app-secret';
/** The stack's exchange and queue prefix. */
export const STACK_AMQP_PREFIX = `${BENCH_PREFIX}.stack`;

/** Every service of the stack (as `pnpm start` runs them, each `all` roles), on free ports, with bench settings. */
export interface Stack {
  services: Array<{ name: string; child: ChildProcess }>;
  gatewayUrl: string;
  sandboxUrl: string;
  /** The base URL of each platform service (the sandbox left out), for its GET /metrics. */
  serviceUrls: string[];
  /** One CPU group per service process, the sandbox included. */
  cpuGroups: CpuGroup[];
  stop(): Promise<void>;
}

export interface StackOptions {
  /** The sandbox's status delays (sent, delivered, read after acceptance); '' turns its webhooks off. */
  statusDelaysMs: string;
}

/** Starts the whole stack on a fresh database of its own and waits until every service is ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const env = {
    ...BENCH_ENV,
    DATABASE_URL: STACK_DATABASE_URL,
    AMQP_PREFIX: STACK_AMQP_PREFIX,
    REDIS_PREFIX: `${BENCH_PREFIX}.stack:`,
  };
  await migrateBenchDatabase(env);
  const ports = {
    sandbox: await freePort(),
    messaging: await freePort(),
    ingress: await freePort(),
    campaign: await freePort(),
    dispatcher: await freePort(),
    gateway: await freePort(),
  };
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const specs: Array<{ name: string; script: string; env: Record<string, string>; ready: string }> = [
    {
      name: 'upstream-sandbox',
      script: 'services/upstream-sandbox/dist/start.js',
      env: {
        SANDBOX_PORT: String(ports.sandbox),
        SANDBOX_DEFAULT_MPS: '0',
        SANDBOX_STATUS_DELAYS_MS: options.statusDelaysMs,
        SANDBOX_FAULT_PATTERNS: 'false',
        SANDBOX_MAX_RECORDS: '1000',
        SANDBOX_APP_SECRET: STACK_APP_SECRET,
        SANDBOX_WEBHOOK_URL: `${url(ports.ingress)}/api/webhooks/channel`,
      },
      ready: `${url(ports.sandbox)}/health`,
    },
    {
      name: 'messaging',
      script: 'services/messaging/dist/start.js',
      env: { MESSAGING_PORT: String(ports.messaging), UPSTREAM_BASE_URL: url(ports.sandbox) },
      ready: `${url(ports.messaging)}/health/ready`,
    },
    {
      name: 'webhook-ingress',
      script: 'services/webhook-ingress/dist/start.js',
      env: {
        INGRESS_PORT: String(ports.ingress),
        INGRESS_APP_SECRET: STACK_APP_SECRET,
        MESSAGING_URL: url(ports.messaging),
      },
      ready: `${url(ports.ingress)}/health/ready`,
    },
    {
      name: 'campaign',
      script: 'services/campaign/dist/start.js',
      env: { CAMPAIGN_PORT: String(ports.campaign), MESSAGING_URL: url(ports.messaging) },
      ready: `${url(ports.campaign)}/health/ready`,
    },
    {
      name: 'webhook-dispatcher',
      script: 'services/webhook-dispatcher/dist/start.js',
      env: {
        DISPATCHER_PORT: String(ports.dispatcher),
        DISPATCHER_ALLOW_HTTP: 'true',
        DISPATCHER_ALLOWED_HOSTS: '127.0.0.1',
      },
      ready: `${url(ports.dispatcher)}/health/ready`,
    },
    {
      name: 'gateway',
      script: 'services/gateway/dist/start.js',
      env: {
        GATEWAY_PORT: String(ports.gateway),
        MESSAGING_URL: url(ports.messaging),
        CAMPAIGN_URL: url(ports.campaign),
        DISPATCHER_URL: url(ports.dispatcher),
        INGRESS_URL: url(ports.ingress),
      },
      ready: `${url(ports.gateway)}/health/ready`,
    },
  ];
  const services = specs.map((s) => ({ name: s.name, child: startService(s.script, { ...env, ...s.env }) }));
  const stopAll = async () => {
    await Promise.all(services.map((s) => stop(s.child)));
  };
  try {
    for (const s of specs) await waitHealthy(s.ready);
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    services,
    gatewayUrl: url(ports.gateway),
    sandboxUrl: url(ports.sandbox),
    serviceUrls: [ports.messaging, ports.ingress, ports.campaign, ports.dispatcher, ports.gateway].map(url),
    cpuGroups: services.map((s) => fixedGroup(s.name, s.child.pid)),
    stop: stopAll,
  };
}

/** Creates a tenant, an API key and an uncapped sandbox number with an open service window to `phone`. */
export async function seedSender(
  stack: Stack,
  db: Client,
  phone: string,
): Promise<{ tenantId: number; apiKey: string; accountId: string; phoneNumberId: string }> {
  const admin = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: T };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const tenant = await admin<{ tenant_id: number }>('/admin/v1/tenants', {
    name: 'bench',
    plan: 'unlimited',
  });
  const key = await admin<{ api_key: string }>(`/admin/v1/tenants/${tenant.tenant_id}/api-keys`);
  const suffix = String(Date.now()).slice(-9);
  const phoneNumberId = `5${suffix}`;
  const account = await admin<{ channel_account_id: string }>(
    `/admin/v1/tenants/${tenant.tenant_id}/channel-accounts`,
    {
      phone_number_id: phoneNumberId,
      waba_id: `4${suffix}`,
      display_phone_number: '15550007777',
      access_token: 'bench-token',
      tier: 'TIER_UNLIMITED',
      throughput_per_second: 10_000,
    },
  );
  await db.query(
    `INSERT INTO messaging.service_windows (channel_account_id, customer_phone, last_inbound_at) VALUES ($1, $2, now())`,
    [account.channel_account_id, phone],
  );
  return {
    tenantId: tenant.tenant_id,
    apiKey: key.api_key,
    accountId: account.channel_account_id,
    phoneNumberId,
  };
}
