import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { median } from './harness';
import { seedSender, STACK_DATABASE_URL, startStack } from './stack';

// `pnpm bench inbox`: the live-chat inbox at the size of a real support team (issue 34): one tenant with 100,000
// conversations, 1,000,000 customer messages and 200,000 of our sends to those customers. The listing's first
// page, a thread's latest 50 messages and a search, each through the gateway, beside the query that answers it
// run bare on one pg connection (the floor).

const CONVERSATIONS = Number(process.env.BENCH_INBOX_CONVERSATIONS ?? 100_000);
const PER_CONVERSATION = 10;
const SENDS_PER_CONVERSATION = 2;
const REQUESTS = Number(process.env.BENCH_INBOX_REQUESTS ?? 100);

interface Timing {
  medianMs: number;
  p99Ms: number;
}
interface Case {
  name: string;
  target: number;
  api: Timing;
  floor: Timing;
}
export interface InboxResult {
  conversations: number;
  messages: number;
  sends: number;
  requests: number;
  seedSeconds: number;
  cases: Case[];
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1];

async function timed(n: number, run: (i: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 5; i += 1) await run(i); // warm-up: connections, plans, caches
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return { medianMs: median(times), p99Ms: p99(times) };
}

/** The n-th conversation's id: a ULID of digits, unique to this run's tenant. */
const conversationId = (run: string, n: number) => `01${run}${String(n).padStart(16, '0')}`;
const customerPhone = (n: number) => `1415${String(n).padStart(7, '0')}`;

/**
 * The tenant's inbox as months of support leave it: every conversation with PER_CONVERSATION customer messages a
 * minute apart (the newest conversation first active now), our sends to each customer, and their service windows.
 */
async function seed(db: Client, tenantId: number, accountId: string, run: string): Promise<void> {
  const id = `'01' || $3 || lpad(g::text, 16, '0')`;
  await db.query(
    `INSERT INTO messaging.inbox_conversations (id, tenant_id, channel_account_id, customer_key, customer_phone,
            customer_name, status, assignee, last_activity_at, last_inbound_message_id, last_message_text,
            unread_count)
     SELECT ${id}, $1, $2, '1415' || lpad(g::text, 7, '0'), '1415' || lpad(g::text, 7, '0'),
            'Customer ' || g, CASE WHEN g % 3 = 0 THEN 'closed' ELSE 'open' END,
            CASE WHEN g % 4 = 0 THEN 'agent-' || (g % 7) END, now() - g * interval '1 minute',
            'wamid.bench.' || $3 || '.' || g || '.0', 'where is my order ' || g, g % 3
       FROM generate_series(1, $4::int) g`,
    [tenantId, accountId, run, CONVERSATIONS],
  );
  for (let from = 1; from <= CONVERSATIONS; from += 20_000) {
    const to = Math.min(from + 19_999, CONVERSATIONS);
    await db.query(
      `INSERT INTO messaging.inbound_messages (provider_message_id, tenant_id, channel_account_id, from_phone, type,
              body, received_at, conversation_id, text, arrival_id)
       SELECT 'wamid.bench.' || $3 || '.' || g || '.' || k, $1, $2, '1415' || lpad(g::text, 7, '0'), 'text',
              jsonb_build_object('type', 'text', 'text', jsonb_build_object('body', 'where is my order ' || g || ' part ' || k)),
              now() - g * interval '1 minute' - k * interval '1 second', ${id},
              'where is my order ' || g || ' part ' || k, 'A' || lpad(g::text, 12, '0') || k
         FROM generate_series($4::int, $5::int) g, generate_series(0, ${PER_CONVERSATION - 1}) k`,
      [tenantId, accountId, run, from, to],
    );
    await db.query(
      `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
              conversation_category, status, created_at)
       SELECT $1, $2, '1415' || lpad(g::text, 7, '0'), 'text', jsonb_build_object('text', 'On its way ' || k),
              'SERVICE', 'read', now() - g * interval '1 minute' - k * interval '20 seconds'
         FROM generate_series($3::int, $4::int) g, generate_series(1, ${SENDS_PER_CONVERSATION}) k`,
      [tenantId, accountId, from, to],
    );
  }
  await db.query(
    `INSERT INTO messaging.service_windows (channel_account_id, customer_phone, last_inbound_at)
     SELECT $1, '1415' || lpad(g::text, 7, '0'), now() - g * interval '1 minute'
       FROM generate_series(2, $2::int) g ON CONFLICT DO NOTHING`,
    [accountId, CONVERSATIONS],
  );
  await db.query('ANALYZE messaging.inbox_conversations, messaging.inbound_messages, messaging.message_logs');
}

export async function benchInbox(): Promise<InboxResult> {
  const stack = await startStack({ statusDelaysMs: '' });
  const db = new Client({ connectionString: STACK_DATABASE_URL });
  await db.connect();
  const sender = await seedSender(stack, db, '+14155550100');
  const run = String(Date.now()).slice(-8);
  try {
    const seeding = performance.now();
    await seed(db, sender.tenantId, sender.accountId, run);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const headers = { authorization: `Bearer ${sender.apiKey}` };
    const get = async (path: string) => {
      const res = await fetch(`${stack.gatewayUrl}${path}`, { headers });
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { data: Record<string, unknown> };
    };
    const floorDb = new Client({ connectionString: STACK_DATABASE_URL });
    await floorDb.connect();
    // Spread over the inbox so no one conversation's pages stay warm: the n-th request reads conversation n*997.
    const pick = (i: number) => 1 + ((i * 997) % CONVERSATIONS);
    const cases: Case[] = [];
    const measure = async (
      name: string,
      target: number,
      api: (i: number) => Promise<unknown>,
      floor: (i: number) => Promise<unknown>,
    ) => cases.push({ name, target, api: await timed(REQUESTS, api), floor: await timed(REQUESTS, floor) });

    await measure(
      'listing, first page (20, newest activity first, with the total)',
      50,
      async () => {
        const page = await get('/api/v1/conversations?per_page=20');
        if ((page.data.conversations as unknown[]).length !== 20) throw new Error('first page not full');
      },
      () =>
        Promise.all([
          floorDb.query('SELECT count(*) FROM messaging.inbox_conversations WHERE tenant_id = $1', [
            sender.tenantId,
          ]),
          floorDb.query(
            `SELECT * FROM messaging.inbox_conversations WHERE tenant_id = $1
              ORDER BY last_activity_at DESC, id DESC LIMIT 20`,
            [sender.tenantId],
          ),
        ]),
    );
    await measure(
      "a thread's latest 50 messages (both directions)",
      50,
      async (i) => {
        const thread = await get(`/api/v1/conversations/${conversationId(run, pick(i))}/messages?limit=50`);
        if ((thread.data.messages as unknown[]).length === 0) throw new Error('empty thread');
      },
      (i) =>
        Promise.all([
          floorDb.query(
            `SELECT provider_message_id, type, body, received_at FROM messaging.inbound_messages
              WHERE conversation_id = $1 ORDER BY received_at DESC LIMIT 50`,
            [conversationId(run, pick(i))],
          ),
          floorDb.query(
            `SELECT id, content, status, created_at FROM messaging.message_logs
              WHERE channel_account_id = $1 AND to_phone = $2 ORDER BY created_at DESC LIMIT 50`,
            [sender.accountId, customerPhone(pick(i))],
          ),
        ]),
    );
    await measure(
      'search: a customer by part of their name or number, or words of their messages',
      200,
      async (i) => {
        await get(`/api/v1/conversations?per_page=20&q=${encodeURIComponent(`order ${pick(i)} part`)}`);
      },
      (i) =>
        floorDb.query(
          `SELECT c.* FROM messaging.inbox_conversations c
            WHERE c.tenant_id = $1 AND c.id IN (SELECT conversation_id FROM messaging.inbound_messages
                                                 WHERE text ILIKE $2 AND tenant_id = $1)
            ORDER BY last_activity_at DESC LIMIT 20`,
          [sender.tenantId, `%order ${pick(i)} part%`],
        ),
    );
    await floorDb.end();
    return {
      conversations: CONVERSATIONS,
      messages: CONVERSATIONS * PER_CONVERSATION,
      sends: CONVERSATIONS * SENDS_PER_CONVERSATION,
      requests: REQUESTS,
      seedSeconds,
      cases,
    };
  } finally {
    // The bench's database is made afresh by the next stack: nothing to clean up.
    await db.end();
    await stack.stop();
  }
}

/** The benchmarks report's section of a result. */
export function inboxReport(r: InboxResult): string {
  const ms = (v: number) => v.toFixed(1);
  const n = (v: number) => v.toLocaleString('en-US');
  return `## The inbox at a support team's size (targets: listing and thread median <= 50 ms, search <= 200 ms)

One tenant with ${n(r.conversations)} conversations, ${n(r.messages)} customer messages and ${n(r.sends)} of our sends
to those customers (seeded in ${r.seedSeconds.toFixed(0)} s). ${r.requests} sequential requests of each kind through the
gateway after 5 warm-up ones, each thread and search for another conversation. The floor: the query that answers
it, bare on one pg connection (no HTTP, authentication or JSON), the same number of times.

| request | floor median ms | median ms | p99 ms | target | median / floor |
|---|---|---|---|---|---|
${r.cases
  .map(
    (c) =>
      `| ${c.name} | ${ms(c.floor.medianMs)} | **${ms(c.api.medianMs)}** | ${ms(c.api.p99Ms)} | <= ${c.target} ms | ${(c.api.medianMs / c.floor.medianMs).toFixed(2)}x |`,
  )
  .join('\n')}
`;
}
