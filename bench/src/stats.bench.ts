import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { median } from './harness';
import { seedSender, STACK_DATABASE_URL, startStack } from './stack';

// `pnpm bench stats`: GET /api/v1/stats for a tenant with 1,000,000 message logs and a month of busy counters,
// through the gateway, beside the same three counter queries run bare in one pg client (the floor).

const LOGS = Number(process.env.BENCH_STATS_LOGS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_STATS_REQUESTS ?? 100);
/** Writing connections whose counter shards a month of sending leaves (each bucket has a row per shard). */
const SHARDS = 20;
const STATUSES = `ARRAY['queued','scheduled','sent','delivered','read','failed','cancelled']`;

export interface StatsResult {
  logs: number;
  requests: number;
  api: { medianMs: number; p99Ms: number };
  floor: { medianMs: number; p99Ms: number };
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1];

async function timed(n: number, run: () => Promise<unknown>): Promise<{ medianMs: number; p99Ms: number }> {
  for (let i = 0; i < 5; i += 1) await run(); // warm-up: connections, plans, caches
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { medianMs: median(times), p99Ms: p99(times) };
}

/** The tenant's logs and a month of counters, as test/e2e/stats-scale.test.ts builds them. */
async function seed(db: Client, tenantId: number, accountId: string): Promise<void> {
  const statuses = `(ARRAY['sent','delivered','read','failed'])[1 + g % 4]`;
  for (let from = 1; from <= LOGS; from += 250_000) {
    await db.query(
      `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
              conversation_category, status, error_message)
       SELECT $1, $2, '1415' || lpad(g::text, 7, '0'), 'template', '{}'::jsonb, 'utility', ${statuses},
              CASE WHEN g % 4 = 3 THEN 'error ' || (g % 50) END
         FROM generate_series($3::int, $4::int) g`,
      [tenantId, accountId, from, Math.min(from + 249_999, LOGS)],
    );
  }
  await db.query(
    `INSERT INTO messaging.message_stats_hourly (tenant_id, hour, status, shard, count)
     SELECT $1, date_trunc('hour', now() AT TIME ZONE 'UTC') - h * interval '1 hour', s, 1000 + shard, 10
       FROM generate_series(1, 24 * 30) h, unnest(${STATUSES}) s, generate_series(1, ${SHARDS}) shard`,
    [tenantId],
  );
  await db.query(
    `INSERT INTO messaging.message_stats_daily (tenant_id, day, status, shard, count)
     SELECT $1, date_trunc('day', now() AT TIME ZONE 'UTC') - d * interval '1 day', s, 1000 + shard, 240
       FROM generate_series(1, 29) d, unnest(${STATUSES}) s, generate_series(1, ${SHARDS}) shard`,
    [tenantId],
  );
  await db.query(
    `INSERT INTO messaging.message_failure_stats (tenant_id, day, error, shard, count)
     SELECT $1, date_trunc('day', now() AT TIME ZONE 'UTC') - d * interval '1 day', 'error ' || e, 1000 + shard, 1
       FROM generate_series(1, 29) d, generate_series(0, 49) e, generate_series(1, ${SHARDS}) shard`,
    [tenantId],
  );
  await db.query(
    'ANALYZE messaging.message_stats_hourly, messaging.message_stats_daily, messaging.message_failure_stats',
  );
}

export async function benchStats(): Promise<StatsResult> {
  const stack = await startStack({ statusDelaysMs: '' });
  const db = new Client({ connectionString: STACK_DATABASE_URL });
  await db.connect();
  try {
    const sender = await seedSender(stack, db, '+14155550100');
    await seed(db, sender.tenantId, sender.accountId);
    const headers = { authorization: `Bearer ${sender.apiKey}` };
    const api = await timed(REQUESTS, async () => {
      const res = await fetch(`${stack.gatewayUrl}/api/v1/stats`, { headers });
      if (res.status !== 200) throw new Error(`GET /api/v1/stats answered ${res.status}`);
      await res.arrayBuffer();
    });
    // The floor: the three counter reads the stats use case makes (message-stats.repository.ts), in parallel as
    // it makes them, bare on one connection each, with no HTTP, authentication or JSON in between.
    const floorClients = [0, 1, 2].map(() => new Client({ connectionString: STACK_DATABASE_URL }));
    await Promise.all(floorClients.map((c) => c.connect()));
    // The ranges the use case reads (message-stats.use-case.ts): the last 24 whole hours and 30 whole days.
    const utc = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    const firstBucket = (step: number, back: number) =>
      utc(Math.floor(Date.now() / step) * step - back * step);
    const firstHour = firstBucket(3_600_000, 23);
    const firstDay = firstBucket(86_400_000, 29);
    const floor = await timed(REQUESTS, () =>
      Promise.all([
        floorClients[0].query(
          `SELECT to_char(hour, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, status, sum(count) AS count
             FROM messaging.message_stats_hourly WHERE tenant_id = $1 AND hour >= $2 GROUP BY 1, 2`,
          [sender.tenantId, firstHour],
        ),
        floorClients[1].query(
          `SELECT to_char(day, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, status, sum(count) AS count
             FROM messaging.message_stats_daily WHERE tenant_id = $1 AND day >= $2 GROUP BY 1, 2`,
          [sender.tenantId, firstDay],
        ),
        floorClients[2].query(
          `SELECT error, sum(count) AS count FROM messaging.message_failure_stats
            WHERE tenant_id = $1 AND day >= $2 GROUP BY error ORDER BY 2 DESC, 1 LIMIT 10`,
          [sender.tenantId, firstDay],
        ),
      ]),
    );
    await Promise.all(floorClients.map((c) => c.end()));
    return { logs: LOGS, requests: REQUESTS, api, floor };
  } finally {
    await db.end();
    await stack.stop();
  }
}

/** The benchmarks report's section of a result. */
export function statsReport(r: StatsResult): string {
  const ms = (v: number) => v.toFixed(1);
  return `## Statistics at scale (target: GET /api/v1/stats median <= 50 ms with 1,000,000 message logs)

A tenant with ${r.logs.toLocaleString('en-US')} message logs and the counters a month of busy sending leaves
(every hour and day of 30 days, every status, ${SHARDS} writing connections, 50 distinct errors), as
\`test/e2e/stats-scale.test.ts\` builds them (the test checks the answer's figures; this measures its time).
${r.requests} sequential requests through the gateway after 5 warm-up ones. The floor: the three counter reads
the use case makes, run bare in parallel on three pg connections, the same number of times.

| target | median ms | p99 ms |
|---|---|---|
| floor: the three counter queries, bare pg | ${ms(r.floor.medianMs)} | ${ms(r.floor.p99Ms)} |
| GET /api/v1/stats through the gateway | **${ms(r.api.medianMs)}** | ${ms(r.api.p99Ms)} |

| figure | measured | target |
|---|---|---|
| median | **${ms(r.api.medianMs)} ms** | <= 50 ms |
| median / floor's median | ${(r.api.medianMs / r.floor.medianMs).toFixed(2)}x | - |
`;
}
