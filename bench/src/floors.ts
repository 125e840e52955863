import { fork, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import {
  cpuWindow,
  databaseBackends,
  fixedGroup,
  SERVER_GROUPS,
  type CpuFigures,
  type CpuGroup,
} from './cpu';
import {
  BENCH_ENV,
  forkServer,
  freePort,
  load,
  startService,
  stop,
  waitHealthy,
  type LoadResult,
  median,
} from './harness';

// The same-shape floors (issue 22): minimal programs of this folder, each its own process, no project code on the
// hot path, shaped as the path they bound. Each is measured with the CPU of its own processes and of the shared
// servers, so the lifecycle can put the floor's CPU for the same work beside its own.

export const LOAD_GENERATOR: CpuGroup = fixedGroup('load generator (this process)', process.pid);

/** A floor's figures: throughput, latency, and CPU per operation of each of its processes. */
export interface FloorFigures {
  /** Operations measured (requests answered, messages acked). */
  operations: number;
  perSecond: number;
  p99Ms?: number;
  cpu: CpuFigures;
}

/** CPU milliseconds per operation of the group named `name` (0 when absent). */
export const cpuPerOperation = (floor: FloorFigures, name: string) =>
  (floor.cpu.groups.find((g) => g.name === name)?.cpuMs ?? 0) / Math.max(1, floor.operations);

/** The bench environment, on another database when given (the floors write in a schema `bench` of their own). */
const envOf = (databaseUrl: string | undefined) => ({
  ...BENCH_ENV,
  DATABASE_URL: databaseUrl ?? BENCH_ENV.DATABASE_URL,
});

/** A bare Node HTTP proxy hop (bench/src/proxy-hop.ts) in front of `target`. */
export const proxyHop = (target: string) =>
  forkServer(join(__dirname, 'proxy-hop.js'), { PROXY_TARGET: target });

export const PROXY = 'floor: bare proxy hop';
export const SEND_ENDPOINT = 'floor: Express insert + confirm-publish';
export const DRAIN_WORKER = 'floor: minimal drain worker';
export const RECEIVER = 'floor: bare signed-insert receiver';
export const SANDBOX = 'upstream sandbox';

/**
 * A floor loaded by autocannon: a 2 s warm-up, then `durationSeconds` with the CPU of `groups` read around it.
 */
async function loadedFloor(
  name: string,
  url: string,
  post: { connections: number; method: 'POST'; body: string; headers: Record<string, string> },
  durationSeconds: number,
  groups: CpuGroup[],
  databaseUrl: string | undefined,
): Promise<FloorFigures & { load: LoadResult }> {
  await load('warm-up', url, { ...post, durationSeconds: 2 });
  const backends = await databaseBackends(envOf(databaseUrl).DATABASE_URL);
  try {
    await backends.refresh();
    const window = cpuWindow([...groups, backends.group, ...SERVER_GROUPS]);
    const result = await load(name, url, { ...post, durationSeconds });
    await backends.refresh();
    return {
      load: result,
      operations: result.requests,
      perSecond: result.requestsPerSecond,
      p99Ms: result.p99Ms,
      cpu: window.stop(),
    };
  } finally {
    await backends.close();
  }
}

/**
 * Send floor: autocannon through the bare proxy hop to the bare Express endpoint that inserts the row and
 * confirm-publishes (the two-hop shape of gateway + messaging), after a 2 s warm-up.
 */
export async function sendFloor(options: {
  connections: number;
  durationSeconds: number;
  body: string;
  databaseUrl?: string;
}): Promise<FloorFigures & { load: LoadResult }> {
  const endpoint = await forkServer(
    join(__dirname, 'insert-publish-baseline.js'),
    envOf(options.databaseUrl),
  );
  const proxy = await proxyHop(`http://127.0.0.1:${endpoint.port}`);
  try {
    const post = {
      connections: options.connections,
      method: 'POST' as const,
      body: options.body,
      headers: { 'content-type': 'application/json' },
    };
    return await loadedFloor(
      'send floor: bare proxy hop -> Express insert + confirm-publish',
      `http://127.0.0.1:${proxy.port}/send`,
      post,
      options.durationSeconds,
      [fixedGroup(PROXY, proxy.child.pid), fixedGroup(SEND_ENDPOINT, endpoint.child.pid), LOAD_GENERATOR],
      options.databaseUrl,
    );
  } finally {
    await Promise.all([stop(proxy.child), stop(endpoint.child)]);
  }
}

/** An uncapped sandbox without status webhooks, for a floor that needs one of its own. */
export async function quietSandbox(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = startService('services/upstream-sandbox/dist/start.js', {
    ...BENCH_ENV,
    SANDBOX_PORT: String(port),
    SANDBOX_DEFAULT_MPS: '0',
    SANDBOX_STATUS_DELAYS_MS: '',
    SANDBOX_FAULT_PATTERNS: 'false',
    SANDBOX_MAX_RECORDS: '1000',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/health`);
  return { child, url };
}

/**
 * Drain floor: the minimal worker (bench/src/drain-floor-worker.ts) consuming `messages` deliver commands queued
 * before the clock starts, POSTing each body to the sandbox at `concurrency`, updating its row and acking.
 */
export async function drainFloor(options: {
  sandbox: { child: ChildProcess; url: string };
  phoneNumberId: string;
  messages: number;
  concurrency: number;
  databaseUrl?: string;
}): Promise<FloorFigures & { seconds: number; failures: number; concurrency: number }> {
  const worker = fork(join(__dirname, 'drain-floor-worker.js'), [], {
    env: {
      ...process.env,
      ...envOf(options.databaseUrl),
      FLOOR_SANDBOX_URL: options.sandbox.url,
      FLOOR_PHONE_NUMBER_ID: options.phoneNumberId,
      FLOOR_MESSAGES: String(options.messages),
      FLOOR_CONCURRENCY: String(options.concurrency),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<Record<string, number | boolean>>((resolve, reject) => {
      worker.once('message', (m: Record<string, number | boolean>) => resolve(m));
      worker.once('exit', (code) => reject(new Error(`the drain floor exited with ${code}`)));
    });
  const backends = await databaseBackends(envOf(options.databaseUrl).DATABASE_URL);
  try {
    await next();
    await backends.refresh();
    const window = cpuWindow([
      fixedGroup(DRAIN_WORKER, worker.pid),
      fixedGroup(SANDBOX, options.sandbox.child.pid),
      backends.group,
      ...SERVER_GROUPS,
    ]);
    const finished = next();
    worker.send('go');
    const figures = (await finished) as {
      messages: number;
      failures: number;
      seconds: number;
      perSecond: number;
      concurrency: number;
    };
    // The worker's pool has ended by now: its backends were all seen at `ready` (it inserted the rows then).
    return { ...figures, operations: figures.messages, cpu: window.stop() };
  } finally {
    await backends.close();
    await stop(worker);
  }
}

/** One signed upstream status webhook of one item, as the sandbox sends them. */
export function signedStatusWebhook(secret: string): { body: string; signature: string } {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '600000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550009999', phone_number_id: '700000000000001' },
              statuses: [
                {
                  id: 'wamid.floor.0001',
                  status: 'delivered',
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: '14155550100',
                  conversation: { id: '72b14d6b0f0d2bbf4d5b2b5b3b6d7a11', origin: { type: 'utility' } },
                  pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  return { body, signature: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` };
}

/**
 * Ingress floor: today's bare signed-insert receiver (bench/src/webhook-receiver-baseline.ts) under autocannon with
 * one signed status webhook of one item: its CPU per receipt.
 */
export async function ingressFloor(options: {
  connections: number;
  durationSeconds: number;
  databaseUrl?: string;
}): Promise<FloorFigures & { load: LoadResult }> {
  const secret = 'bench-floor-secret';
  const receiver = await forkServer(join(__dirname, 'webhook-receiver-baseline.js'), {
    ...envOf(options.databaseUrl),
    APP_SECRET: secret,
  });
  try {
    const { body, signature } = signedStatusWebhook(secret);
    const post = {
      connections: options.connections,
      method: 'POST' as const,
      body,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    };
    return await loadedFloor(
      'ingress floor: bare signed-insert receiver',
      `http://127.0.0.1:${receiver.port}/webhook`,
      post,
      options.durationSeconds,
      [fixedGroup(RECEIVER, receiver.child.pid), LOAD_GENERATOR],
      options.databaseUrl,
    );
  } finally {
    await stop(receiver.child);
  }
}

/**
 * Campaign-create floor: the same proxy hop in front of an endpoint that parses the body and writes every recipient
 * in one statement before answering 202 (bench/src/campaign-create-floor.ts). The median time of `runs` creates.
 */
export async function campaignCreateFloor(
  bodies: string[],
  databaseUrl?: string,
): Promise<{ acceptMs: number }> {
  const endpoint = await forkServer(join(__dirname, 'campaign-create-floor.js'), envOf(databaseUrl));
  const proxy = await proxyHop(`http://127.0.0.1:${endpoint.port}`);
  try {
    const times: number[] = [];
    for (const body of bodies) {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${proxy.port}/api/v1/campaigns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 202) throw new Error(`the campaign-create floor answered ${res.status}`);
      times.push(performance.now() - started);
    }
    return { acceptMs: median(times) };
  } finally {
    await Promise.all([stop(proxy.child), stop(endpoint.child)]);
  }
}
