import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { freePort, testEnv, waitFor } from '@bm/platform/testing';
import { startBalancer, type Balancer } from './balancer';

/** The services of the stack as separate processes (their built `dist/start.js`), stopped in reverse order. */
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

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Where the children's logs go: with `BM_TEST_LOG_DIR` (set by jest's global setup) each process' stdout and
 * stderr are appended to a file of its own there, at LOG_LEVEL info, for the run's scan for leaked secrets.
 */
const logDir = (): string | undefined => process.env.BM_TEST_LOG_DIR || undefined;

/** How a cluster is made up, beyond the settings every cluster has. */
export interface ClusterOptions {
  /**
   * Processes per service (1 unless told). The sandbox stays one: it stands for the upstream network, a
   * single system outside the platform whose records the checks count.
   */
  replicas?: number;
  /** Settings on top of the cluster's own, for every service. */
  env?: Record<string, string>;
}

/**
 * Every service on its own port with the test run's database, broker prefix and Redis prefix, settings that
 * make recovery quick (short retry, stranded and grace delays), and the sandbox reporting statuses to ingress.
 * With more than one replica, each service's address (the one the others are given) is a round-robin
 * balancer in front of its replicas, and every replica also has an address of its own.
 */
export class Cluster {
  private readonly processes = new Map<string, ChildProcess>();
  private readonly replicaPorts = new Map<ServiceName, number[]>();
  private readonly servicePorts = new Map<ServiceName, number>();
  private readonly balancers: Balancer[] = [];
  private readonly stderr = new Map<string, string>();
  /** Settles once a child's log file has everything it wrote (only with a log directory). */
  private readonly logsWritten: Array<Promise<void>> = [];
  private readonly killAll = () => {
    for (const child of this.processes.values()) if (running(child)) child.kill('SIGKILL');
  };

  constructor(private readonly options: ClusterOptions = {}) {}

  /** How many processes run the service. */
  replicas(name: ServiceName): number {
    return name === 'upstream-sandbox' ? 1 : Math.max(1, this.options.replicas ?? 1);
  }

  /** The service's address (its balancer when replicated), or one replica's own with `replica`. */
  url(name: ServiceName, replica?: number): string {
    const port = replica === undefined ? this.servicePorts.get(name) : this.replicaPorts.get(name)?.[replica];
    if (port === undefined) throw new Error(`no ${name}${replica === undefined ? '' : ` #${replica}`}`);
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    // Children die with this process even if the suite never reaches stop().
    process.once('exit', this.killAll);
    for (const name of SERVICES) {
      const ports: number[] = [];
      for (let i = 0; i < this.replicas(name); i += 1) ports.push(await freePort());
      this.replicaPorts.set(name, ports);
      if (ports.length === 1) this.servicePorts.set(name, ports[0]);
      else {
        const balancer = await startBalancer(ports);
        this.balancers.push(balancer);
        this.servicePorts.set(name, balancer.port);
      }
    }
    // Each readiness check covers the process' own database, broker and cache, never another service.
    await Promise.all(SERVICES.map((name) => this.startService(name)));
  }

  private env(): Record<string, string> {
    return testEnv({
      ADMIN_TOKEN,
      LOG_LEVEL: logDir() ? 'info' : 'error',
      MESSAGING_URL: this.url('messaging'),
      CAMPAIGN_URL: this.url('campaign'),
      INGRESS_URL: this.url('webhook-ingress'),
      DISPATCHER_URL: this.url('webhook-dispatcher'),
      UPSTREAM_BASE_URL: this.url('upstream-sandbox'),
      UPSTREAM_TIMEOUT_MS: '10000',
      ATTEMPT_GRACE_MS: '1000',
      // A send whose worker died in the call waits this long for a status report naming its attempt (15 min by
      // default): long enough for the sandbox's reports to come through a restart, short enough for a send that
      // never reached the upstream to settle (as failed) before the next fault.
      UNKNOWN_OUTCOME_WINDOW_MS: '20000',
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
      ...this.options.env,
    }) as Record<string, string>;
  }

  /** Starts the service's replicas (or only the one given) and waits until each is ready. */
  async startService(name: ServiceName, replica?: number): Promise<void> {
    const which = replica === undefined ? [...Array(this.replicas(name)).keys()] : [replica];
    await Promise.all(which.map((i) => this.startReplica(name, i)));
  }

  private async startReplica(name: ServiceName, replica: number): Promise<void> {
    const key = `${name}#${replica}`;
    const dir = logDir();
    const child = spawn(process.execPath, [path.join(__dirname, `../../services/${name}/dist/start.js`)], {
      env: { ...process.env, ...this.env(), [PORT_VAR[name]]: String(this.replicaPorts.get(name)![replica]) },
      stdio: ['ignore', dir ? 'pipe' : 'ignore', 'pipe'],
    });
    this.processes.set(key, child);
    if (dir) this.writeLogs(child, dir, `child-${name}-${replica}-${child.pid ?? 'unknown'}.log`);
    // The end of what it wrote to stderr, for the error when it never becomes ready.
    this.stderr.set(key, '');
    child.stderr?.on('data', (chunk: Buffer) =>
      this.stderr.set(key, `${this.stderr.get(key)}${chunk.toString()}`.slice(-2_000)),
    );
    const ready = name === 'upstream-sandbox' ? '/health' : '/health/ready';
    // Generous: eleven processes starting at once on a loaded machine share its cores.
    const outcome = await waitFor(
      async () => {
        if (!running(child)) return 'exited';
        const res = await fetch(`${this.url(name, replica)}${ready}`).catch(() => undefined);
        if (res?.ok) return 'ready';
        throw new Error(res ? `${res.status} ${await res.text()}` : 'no answer');
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `${key} ready` },
    );
    if (outcome === 'exited') {
      const code = child.exitCode ?? child.signalCode;
      throw new Error(`${key} exited (${code}) before it was ready: ${this.stderr.get(key)}`);
    }
  }

  /** Appends the child's stdout and stderr to `file` in `dir` until both end. */
  private writeLogs(child: ChildProcess, dir: string, file: string): void {
    mkdirSync(dir, { recursive: true });
    const log = createWriteStream(path.join(dir, file), { flags: 'a' });
    log.on('error', () => undefined);
    let open = 2;
    const ended = () => {
      open -= 1;
      if (open === 0) log.end();
    };
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) ended();
      else {
        stream.pipe(log, { end: false });
        stream.once('close', ended);
      }
    }
    this.logsWritten.push(new Promise((resolve) => log.once('close', () => resolve())));
  }

  /** SIGKILL to the service's replicas (or only the one given): no shutdown, whatever was in flight is cut. */
  async kill(name: ServiceName, replica?: number): Promise<void> {
    const which = replica === undefined ? [...Array(this.replicas(name)).keys()] : [replica];
    await Promise.all(
      which.map(async (i) => {
        const child = this.processes.get(`${name}#${i}`);
        if (!child || !running(child)) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }),
    );
  }

  async stop(): Promise<void> {
    for (const name of [...SERVICES].reverse()) await this.kill(name);
    await Promise.all(this.balancers.map((b) => b.close()));
    await Promise.all(this.logsWritten);
    process.removeListener('exit', this.killAll);
  }
}
