import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  forkServer,
  freePort,
  load,
  median,
  startService,
  stop,
  waitHealthy,
  type LoadResult,
} from './harness';
import { cpuWindow, fixedGroup } from './cpu';
import { proxyHop } from './floors';

const ROOT = join(__dirname, '..', '..');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';
const BENCH_PLAN = 'bench-metered';

export interface GatewayBenchResult {
  baseline: LoadResult;
  gateway: LoadResult;
  ratio: number;
  /** The same-shape floor: a bare Node proxy hop in front of the same internal service. */
  proxy: LoadResult;
  /** CPU milliseconds per request (/proc utime + stime) of the gateway and of the bare proxy hop, over every round. */
  gatewayCpuMs: number;
  proxyCpuMs: number;
  /** Each round's CPU per request of the two, measured back to back. */
  rounds: Array<{ gatewayCpuMs: number; proxyCpuMs: number }>;
  /** The median of the rounds' gateway / hop CPU ratios. */
  cpuRatio: number;
}

/** The loads of several rounds as one: requests and errors added, req/s averaged, the worst p99. */
function combined(name: string, rounds: LoadResult[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => rounds.reduce((total, r) => total + f(r), 0);
  return {
    name,
    requests: sum((r) => r.requests),
    requestsPerSecond: sum((r) => r.requestsPerSecond) / rounds.length,
    p99Ms: Math.max(...rounds.map((r) => r.p99Ms)),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
  };
}

/** An authenticated GET through the gateway to an internal service, beside a bare Express hello-world. */
export async function benchGateway(
  connections: number,
  durationSeconds: number,
): Promise<GatewayBenchResult> {
  const env = {
    DATABASE_URL:
      process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/business_messaging_bench',
    REDIS_PREFIX: 'bench:',
    AMQP_PREFIX: 'bench',
    ADMIN_TOKEN,
    INTERNAL_TOKEN,
    LOG_LEVEL: 'error',
    // The tenant's plan is metered (every request counted in Redis, as a real tenant's is) with a budget the load
    // never spends: the unlimited plan would skip the rate limiter the target measures.
    RATE_LIMIT_PLANS: JSON.stringify({
      default: { limit: 200, window_seconds: 1 },
      unlimited: { limit: null, window_seconds: 1 },
      [BENCH_PLAN]: { limit: 1_000_000_000, window_seconds: 1 },
    }),
  };
  const migrate = spawnSync(process.execPath, [join(ROOT, 'scripts/dist/migrate-all.js')], {
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (migrate.status !== 0) throw new Error('migrations failed');

  const hello = await forkServer(join(__dirname, 'hello-world.js'), {});
  const echo = await forkServer(join(__dirname, 'echo-service.js'), { INTERNAL_TOKEN });
  const proxy = await proxyHop(`http://127.0.0.1:${echo.port}`);
  const gatewayPort = await freePort();
  // startService: BENCH_CPU_PROF=<dir> profiles the gateway too.
  const gateway = startService('services/gateway/dist/start.js', {
    ...env,
    GATEWAY_PORT: String(gatewayPort),
    MESSAGING_URL: `http://127.0.0.1:${echo.port}`,
  });
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  try {
    await waitHealthy(`${gatewayUrl}/api/health`);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const tenant = (await (
      await fetch(`${gatewayUrl}/admin/v1/tenants`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'bench', plan: BENCH_PLAN }),
      })
    ).json()) as { data: { tenant_id: number } };
    const key = (await (
      await fetch(`${gatewayUrl}/admin/v1/tenants/${tenant.data.tenant_id}/api-keys`, {
        method: 'POST',
        headers: admin,
      })
    ).json()) as { data: { api_key: string } };
    const headers = { authorization: `Bearer ${key.data.api_key}` };

    await load('warm-up', `http://127.0.0.1:${hello.port}/hello`, { connections, durationSeconds: 2 });
    const baseline = await load('bare Express 5 hello-world', `http://127.0.0.1:${hello.port}/hello`, {
      connections,
      durationSeconds,
    });
    const proxyUrl = `http://127.0.0.1:${proxy.port}/api/v1/templates`;
    // The echo service wants the internal credential and a tenant: the bare hop passes what the gateway would add.
    const internal = { 'x-internal-token': INTERNAL_TOKEN, 'x-bm-tenant-id': String(tenant.data.tenant_id) };
    await load('warm-up', proxyUrl, { connections, durationSeconds: 2, headers: internal });
    await load('warm-up', `${gatewayUrl}/api/v1/templates`, { connections, durationSeconds: 2, headers });
    // The hop and the gateway in rounds, back to back and in alternating order (ABBA), each round's ratio taken
    // from the two: the load of a shared machine drifts by tens of percent over a minute, which a single
    // measurement of each, one after the other, reads as a difference between them.
    const roundCount = Math.max(1, Number(process.env.BENCH_GATEWAY_ROUNDS ?? 5));
    const roundSeconds = Math.max(2, Math.round(durationSeconds / 2));
    const HOP = 'bare Node proxy hop -> internal service';
    const THROUGH = 'gateway -> internal service (authenticated, rate-limited)';
    /** One load of a round, with the CPU milliseconds the process spent over it. */
    const measure = async (name: string, url: string, pid: number | undefined, h: Record<string, string>) => {
      const cpu = cpuWindow([fixedGroup(name, pid)]);
      const result = await load(name, url, { connections, durationSeconds: roundSeconds, headers: h });
      return { result, cpuMs: cpu.stop().groups[0].cpuMs };
    };
    const runHop = () => measure(HOP, proxyUrl, proxy.child.pid, internal);
    const runGateway = () => measure(THROUGH, `${gatewayUrl}/api/v1/templates`, gateway.pid, headers);
    const hops: Array<Awaited<ReturnType<typeof measure>>> = [];
    const throughs: Array<Awaited<ReturnType<typeof measure>>> = [];
    for (let i = 0; i < roundCount; i += 1) {
      if (i % 2 === 0) {
        hops.push(await runHop());
        throughs.push(await runGateway());
      } else {
        throughs.push(await runGateway());
        hops.push(await runHop());
      }
    }
    const perRequest = (m: { result: LoadResult; cpuMs: number }) => m.cpuMs / Math.max(1, m.result.requests);
    const rounds = hops.map((h, i) => ({ proxyCpuMs: perRequest(h), gatewayCpuMs: perRequest(throughs[i]) }));
    const all = (name: string, ms: typeof hops) => ({
      result: combined(
        name,
        ms.map((m) => m.result),
      ),
      cpuMs: ms.reduce((sum, m) => sum + m.cpuMs, 0),
    });
    const hop = all(HOP, hops);
    const through = all(THROUGH, throughs);
    return {
      baseline,
      gateway: through.result,
      ratio: through.result.requestsPerSecond / baseline.requestsPerSecond,
      proxy: hop.result,
      gatewayCpuMs: perRequest(through),
      proxyCpuMs: perRequest(hop),
      rounds,
      cpuRatio: median(rounds.map((r) => r.gatewayCpuMs / r.proxyCpuMs)),
    };
  } finally {
    // stop() waits for the exit, so that a CPU profile is written.
    await Promise.all([stop(gateway), stop(hello.child), stop(echo.child), stop(proxy.child)]);
  }
}
