import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { testEnv, waitFor } from '@bm/platform/testing';

/** The services of the stack as separate processes (their built `dist/start.js`), in start order. */
export const SERVICES = [
  'upstream-sandbox',
  'messaging',
  'webhook-ingress',
  'campaign',
  'webhook-dispatcher',
  'gateway',
] as const;
export type ServiceName = (typeof SERVICES)[number];

const PORT_VAR: Record<ServiceName, string> = {
  'upstream-sandbox': 'SANDBOX_PORT',
  messaging: 'MESSAGING_PORT',
  'webhook-ingress': 'INGRESS_PORT',
  campaign: 'CAMPAIGN_PORT',
  'webhook-dispatcher': 'DISPATCHER_PORT',
  gateway: 'GATEWAY_PORT',
};

export const ADMIN_TOKEN = 'fault-admin-token-0123456789';
export const APP_SECRET = 'fault-app-secret';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Every service on its own port with the test run's database, broker prefix and Redis prefix, settings that
 * make recovery quick (short retry, stranded and grace delays), and the sandbox reporting statuses to ingress.
 */
export class Cluster {
  private readonly processes = new Map<ServiceName, ChildProcess>();
  private ports = {} as Record<ServiceName, number>;

  url(name: ServiceName): string {
    return `http://127.0.0.1:${this.ports[name]}`;
  }

  async start(): Promise<void> {
    for (const name of SERVICES) this.ports[name] = await freePort();
    for (const name of SERVICES) await this.startService(name);
  }

  private env(): Record<string, string> {
    return testEnv({
      ADMIN_TOKEN,
      LOG_LEVEL: 'error',
      MESSAGING_URL: this.url('messaging'),
      CAMPAIGN_URL: this.url('campaign'),
      INGRESS_URL: this.url('webhook-ingress'),
      DISPATCHER_URL: this.url('webhook-dispatcher'),
      UPSTREAM_BASE_URL: this.url('upstream-sandbox'),
      UPSTREAM_TIMEOUT_MS: '10000',
      ATTEMPT_GRACE_MS: '1000',
      STRANDED_AFTER_MS: '3000',
      SCHEDULER_INTERVAL_MS: '100',
      SEND_RETRY_BASE_MS: '200',
      DISPATCH_INTERVAL_MS: '100',
      PREPARE_SWEEP_INTERVAL_MS: '200',
      SANDBOX_WEBHOOK_URL: `${this.url('webhook-ingress')}/api/webhooks/channel`,
      SANDBOX_APP_SECRET: APP_SECRET,
      INGRESS_APP_SECRET: APP_SECRET,
      SANDBOX_STATUS_DELAYS_MS: '100,200,300',
      SANDBOX_DEFAULT_MPS: '0',
      SANDBOX_FAULT_PATTERNS: 'false',
      SANDBOX_WEBHOOK_MAX_ATTEMPTS: '20',
      SANDBOX_WEBHOOK_RETRY_BASE_MS: '200',
      DISPATCHER_ALLOW_HTTP: 'true',
      DISPATCHER_ALLOWED_HOSTS: '127.0.0.1',
      DISPATCHER_RETRY_INTERVAL_MS: '300',
      DISPATCHER_MAX_RETRIES: '20',
      DEFAULT_PLAN: 'unlimited',
      SHUTDOWN_TIMEOUT_MS: '3000',
    }) as Record<string, string>;
  }

  async startService(name: ServiceName): Promise<void> {
    const child = spawn(process.execPath, [path.join(__dirname, `../../services/${name}/dist/start.js`)], {
      env: { ...process.env, ...this.env(), [PORT_VAR[name]]: String(this.ports[name]) },
      stdio: 'ignore',
    });
    this.processes.set(name, child);
    const ready = name === 'upstream-sandbox' ? '/health' : '/health/ready';
    await waitFor(async () => (await fetch(`${this.url(name)}${ready}`).catch(() => undefined))?.ok, {
      timeoutMs: 30_000,
      what: `${name} ready`,
    });
  }

  /** SIGKILL: no shutdown, whatever was in flight is cut. */
  async kill(name: ServiceName): Promise<void> {
    const child = this.processes.get(name);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    for (const name of [...SERVICES].reverse()) await this.kill(name);
  }
}
