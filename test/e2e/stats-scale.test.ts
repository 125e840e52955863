import { Client } from 'pg';
import request from 'supertest';
import type { MessageStatsDto } from '@bm/contracts';
import { createTenant, startStack, type Stack, type TenantFixture } from '../support/stack';

/*
 * GET /api/v1/stats at scale: a tenant with 1,000,000 message logs, and counters as a month of busy sending
 * leaves them (every hour of 30 days and every day's failures, every status, 20 writing connections, 50 distinct
 * errors; the daily figures are the hours' summed). The
 * answer reads only the counters and its figures are right; how fast it answers is `pnpm bench stats`'s figure
 * (target: median <= 50 ms, beside the bare counter queries), not this test's.
 */
const LOGS = 1_000_000;
const SHARDS = 20;
let stack: Stack;
let t: TenantFixture;
let db: Client;

beforeAll(async () => {
  stack = await startStack();
  t = await createTenant(stack, 'TIER_UNLIMITED');
  db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await db.connect();
}, 60_000);

afterAll(async () => {
  await db?.end();
  await stack?.stop();
});

it('when a tenant has 1,000,000 message logs and a month of counters, then the statistics count them from the counters', async () => {
  // One statement per 250,000 logs: the statement-level trigger counts each batch once.
  const statuses = `(ARRAY['sent','delivered','read','failed'])[1 + g % 4]`;
  for (let from = 1; from <= LOGS; from += 250_000) {
    await db.query(
      `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
              conversation_category, status, error_message)
       SELECT $1, $2, '1415' || lpad(g::text, 7, '0'), 'template', '{}'::jsonb, 'utility', ${statuses},
              CASE WHEN g % 4 = 3 THEN 'error ' || (g % 50) END
         FROM generate_series($3::int, $4::int) g`,
      [t.tenantId, t.channelAccountId, from, from + 249_999],
    );
  }
  const statusList = `ARRAY['queued','scheduled','sent','delivered','read','failed','cancelled']`;
  await db.query(
    `INSERT INTO messaging.message_stats_hourly (tenant_id, hour, status, shard, count)
     SELECT $1, date_trunc('hour', now() AT TIME ZONE 'UTC') - h * interval '1 hour', s, 1000 + shard, 10
       FROM generate_series(1, 24 * 30) h, unnest(${statusList}) s, generate_series(1, ${SHARDS}) shard`,
    [t.tenantId],
  );
  // The hours of today before the current one, counted in today's figures beside the 29 whole days before it.
  const { rows } = await db.query(`SELECT extract(hour FROM now() AT TIME ZONE 'UTC')::int AS hours`);
  const hoursToday = rows[0].hours as number;
  await db.query(
    `INSERT INTO messaging.message_failure_stats (tenant_id, day, error, shard, count)
     SELECT $1, date_trunc('day', now() AT TIME ZONE 'UTC') - d * interval '1 day', 'error ' || e, 1000 + shard, 1
       FROM generate_series(1, 29) d, generate_series(0, 49) e, generate_series(1, ${SHARDS}) shard`,
    [t.tenantId],
  );
  await db.query('ANALYZE messaging.message_stats_hourly, messaging.message_failure_stats');

  const get = () => request(stack.gatewayUrl).get('/api/v1/stats').set(t.auth).expect(200);
  const first = (await get()).body.data as MessageStatsDto;
  // The logs inserted above, in today's counters: a quarter of them in each of the four statuses.
  expect(first.hourly[23].counts).toMatchObject({ sent: LOGS / 4, delivered: LOGS / 4, read: LOGS / 4 });
  expect(first.totals_30d.failed).toBe(LOGS / 4 + (29 * 24 + hoursToday) * 10 * SHARDS);
  expect(first.failures_by_error).toHaveLength(10);
}, 600_000);
