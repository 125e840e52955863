import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { OutboxRelay, createLogger, type EventPublisher } from '@bm/platform';
import { freshDatabase, ROOT } from './harness';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of every query a service runs periodically, idle or not (outbox relays, the
 * scheduler's sweeps, the retention jobs, the campaign dispatcher's claim, the webhook dispatcher's claim),
 * against a scratch database holding IDLE_EXPLAIN_MESSAGES (default 1,000,000) message logs and matching volumes
 * elsewhere. The queries are the services' own: each repository method runs against a connection that explains
 * what it is asked (in a transaction rolled back) and answers no rows.
 *
 *   pnpm build && node bench/dist/idle-explain.js
 */
const MESSAGES = Number(process.env.IDLE_EXPLAIN_MESSAGES ?? 1_000_000);
const BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/business_messaging_bench';
const DATABASE_URL = BASE.replace(/\/[^/]*$/, (name) => `${name}_idle_explain`);

const dist = (service: string, file: string) => join(ROOT, 'services', service, 'dist', file);
/** A repository of a built service, seen only as methods that answer promises. */
type Repository = Record<string, (...args: unknown[]) => Promise<unknown>>;
type Module = Record<string, (new (db: unknown) => Repository) & ((...args: unknown[]) => Promise<unknown>)>;
const load = (service: string, file: string) => require(dist(service, file)) as Module;
const { MessageSweepRepository } = load('messaging', 'data-access/message-sweep.repository.js');
const { StatusReportRepository } = load('messaging', 'data-access/status-report.repository.js');
const { FlowSessionRepository } = load('messaging', 'data-access/flow-session.repository.js');
const { CampaignRepository } = load('campaign', 'data-access/campaign.repository.js');
const { InboundEventRepository } = load('webhook-ingress', 'data-access/inbound-event.repository.js');
const { DeliveryRepository } = load('webhook-dispatcher', 'data-access/delivery.repository.js');
const { RetentionRepository } = load('webhook-dispatcher', 'data-access/retention.repository.js');

/** Volumes: a day of a busy number's traffic, and the finished rows a retention keeps. */
const FILL = [
  `INSERT INTO messaging.channel_accounts (id, tenant_id, phone_number_id, waba_id, business_id,
     display_phone_number, access_token_sealed, tier, throughput_per_second)
   VALUES ('ca_explain', 1, '100000000000001', '200000000000001', '200000000000001', '15550001111', 'sealed',
           'TIER_1K', 80)`,
  // Most messages finished (read, delivered, failed); a few scheduled in the future, retrying, in flight.
  `INSERT INTO messaging.message_logs (tenant_id, channel_account_id, to_phone, message_type, content,
     conversation_category, status, provider_message_id, scheduled_at, next_attempt_at, attempt_started_at,
     created_at, updated_at)
   SELECT 1 + i % 50, 'ca_explain', '+1415555' || lpad((i % 10000)::text, 4, '0'), 'template', '{}'::jsonb,
          'marketing',
          CASE WHEN i % 1000 = 1 THEN 'scheduled' WHEN i % 1000 IN (2, 3) THEN 'queued'
               WHEN i % 10 = 0 THEN 'failed' WHEN i % 3 = 0 THEN 'delivered' ELSE 'read' END,
          CASE WHEN i % 1000 IN (1, 2, 3) THEN NULL ELSE 'wamid.explain.' || i END,
          CASE WHEN i % 1000 = 1 THEN now() + (i % 86400) * interval '1 second' END,
          CASE WHEN i % 1000 = 2 THEN now() + interval '1 hour' END,
          CASE WHEN i % 1000 = 3 THEN now() END,
          now() - (${MESSAGES} - i) * interval '80 milliseconds', now() - (${MESSAGES} - i) * interval '80 milliseconds'
     FROM generate_series(1, ${MESSAGES}) i`,
  // Reports no message claimed (another client of the number), a week of them.
  `INSERT INTO messaging.pending_status_reports (provider_message_id, status, report, received_at)
   SELECT 'wamid.foreign.' || i, 'delivered', '{}'::jsonb, now() - (i % 604800) * interval '1 second'
     FROM generate_series(1, ${MESSAGES / 10}) i`,
  `INSERT INTO messaging.outbox (message_id, routing_key, payload, published_at, created_at)
   SELECT 'evt-' || i, 'message.status_updated', '{}'::jsonb, now() - (i % 86400) * interval '1 second',
          now() - (i % 86400) * interval '1 second'
     FROM generate_series(1, ${MESSAGES}) i`,
  `INSERT INTO campaign.campaigns (id, tenant_id, channel_account_id, status, template_name, template_language,
     template_components, requested_count, created_at)
   SELECT 'cmp_' || i, 1 + i % 50, 'ca_explain', 'completed', 'hello', 'en', '[]'::jsonb, 100,
          now() - i * interval '1 minute'
     FROM generate_series(1, ${MESSAGES / 100}) i`,
  `INSERT INTO campaign.outbox (message_id, routing_key, payload, published_at)
   SELECT 'cevt-' || i, 'messaging.send_requested', '{}'::jsonb, now() - (i % 86400) * interval '1 second'
     FROM generate_series(1, ${MESSAGES / 10}) i`,
  `INSERT INTO ingress.inbound_events (id, body_sha256, body_bytes, raw_body, headers, signed_with, outcome,
     processed_at, received_at)
   SELECT 'ev_' || i, md5(i::text), 300, '{}', '{}'::jsonb, 'current', 'processed', now(),
          now() - (i % 86400) * interval '1 second'
     FROM generate_series(1, ${MESSAGES / 2}) i`,
  `INSERT INTO ingress.outbox (message_id, routing_key, payload, published_at)
   SELECT 'ievt-' || i, 'channel.status_received', '{}'::jsonb, now() - (i % 86400) * interval '1 second'
     FROM generate_series(1, ${MESSAGES}) i`,
  `INSERT INTO dispatcher.events (id, tenant_id, event, body)
   SELECT 'devt-' || i, 1 + i % 50, 'message.status_updated', '{}' FROM generate_series(1, ${MESSAGES / 2}) i`,
  `INSERT INTO dispatcher.deliveries (id, event_id, tenant_id, event, status, attempt_count, created_at)
   SELECT 'dlv-' || i, 'devt-' || i, 1 + i % 50, 'message.status_updated', 'delivered', 1,
          now() - (i % 86400) * interval '1 second'
     FROM generate_series(1, ${MESSAGES / 2}) i`,
];

type Explained = { name: string; plan: string[] };

/** A stand-in for a data source or transaction: explains each statement, rolled back, and answers no rows. */
function explainer(db: Client, name: string, out: Explained[]) {
  let n = 0;
  const query = async (sql: string, params: unknown[] = []): Promise<unknown[]> => {
    if (/pg_advisory_xact_lock/.test(sql)) return [];
    n += 1;
    await db.query('BEGIN');
    try {
      const res = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
        params,
      );
      out.push({ name: n > 1 ? `${name} (${n})` : name, plan: res.rows.map((r) => r['QUERY PLAN']) });
    } finally {
      await db.query('ROLLBACK');
    }
    return [];
  };
  const conn = { query, isTransactionActive: true };
  const manager = { query, queryRunner: conn };
  return { query, transaction: <T>(fn: (tx: typeof manager) => Promise<T>) => fn(manager), ...{ manager } };
}

async function explainAll(db: Client): Promise<Explained[]> {
  const out: Explained[] = [];
  const run = async (name: string, call: (x: ReturnType<typeof explainer>) => Promise<unknown>) => {
    // Methods that read their own answer fail on the empty one: the plan is taken by then.
    await call(explainer(db, name, out)).catch(() => undefined);
  };
  const logger = createLogger('idle-explain', 'silent');
  const amqp = { isConnected: () => true, publish: () => Promise.resolve() } as unknown as EventPublisher;
  for (const schema of ['messaging', 'campaign', 'ingress']) {
    await run(`${schema} outbox relay: next batch`, (x) =>
      new OutboxRelay({ dataSource: x as never, schema, amqp, logger, batchSize: 500 }).relayOnce(),
    );
    await run(`${schema} outbox relay: cleanup (every 10 min)`, (x) =>
      new OutboxRelay({ dataSource: x as never, schema, amqp, logger }).cleanup(),
    );
  }
  const sweep = (x: ReturnType<typeof explainer>) => new MessageSweepRepository(x);
  await run('messaging scheduler: due scheduled messages', (x) => sweep(x).lockDueScheduled(x.manager));
  await run('messaging scheduler: due retries', (x) => sweep(x).takeDueRetries(x.manager));
  await run('messaging scheduler: the longest-waiting ready message', (x) => sweep(x).oldestReady());
  await run('messaging scheduler: stranded queued messages (when one waited that long)', (x) =>
    sweep(x).touchStranded(x.manager, new Date(Date.now() - 300_000)),
  );
  await run('messaging scheduler: attempts awaiting a slot', (x) =>
    sweep(x).releaseUnfinishedAttempts('awaiting slot', 40_000),
  );
  await run('messaging scheduler: unknown outcomes to resend', (x) =>
    sweep(x).releaseUnfinishedAttempts('unknown outcome, not resent', 900_000),
  );
  await run('messaging scheduler: unknown outcomes to fail', (x) =>
    sweep(x).lockUnknownOutcomes(x.manager, 900_000),
  );
  await run('messaging scheduler: orphaned reports since the last pass', (x) =>
    new StatusReportRepository(x).messagesWithOrphanedReports(
      { at: new Date(Date.now() - 130_000), providerMessageId: '' },
      5000,
    ),
  );
  await run(
    'messaging scheduler: orphaned reports, first pass after start (first slice of those kept)',
    (x) => new StatusReportRepository(x).messagesWithOrphanedReports(null, 5000),
  );
  await run('messaging scheduler: next due time', (x) => sweep(x).nextDueAt());
  await run('messaging pending report retention (every 10 min)', (x) =>
    new StatusReportRepository(x).deleteExpiredPendingReports(168, 1000),
  );
  await run('messaging flow session timeouts', (x) => new FlowSessionRepository(x).expireDue(x.manager, 100));
  await run('campaign dispatcher: claim', (x) => new CampaignRepository(x).claimDue([]));
  await run('campaign dispatcher: next due time', (x) => new CampaignRepository(x).nextDueAt());
  await run('campaign preparation sweep', (x) => new CampaignRepository(x).waitingUploadIds([], 10));
  await run('ingress splitter: due events', (x) => new InboundEventRepository(x).dueWithBodies(100, 4 << 20));
  await run('ingress splitter: next due time', (x) => new InboundEventRepository(x).nextDueAt());
  // One function call records, claims and (idle) answers the next due time: EXPLAIN shows the call, not its plans.
  await run('webhook dispatcher: claim, and the next due time when idle', (x) =>
    new DeliveryRepository(x).recordAndClaim({
      finished: [],
      claimLimit: 100,
      perEndpoint: 10,
      leaseMs: 15_000,
      token: 'lease',
      wantNextDue: true,
    }),
  );
  await run('webhook dispatcher: retention (every 10 min)', (x) =>
    new RetentionRepository(x).purge(30, 1000),
  );
  return out;
}

async function main(): Promise<void> {
  await freshDatabase(DATABASE_URL);
  const migrate = spawnSync(process.execPath, [join(ROOT, 'scripts/dist/migrate-all.js')], {
    env: { ...process.env, DATABASE_URL, LOG_LEVEL: 'error' },
    stdio: 'inherit',
  });
  if (migrate.status !== 0) throw new Error('migrations failed');
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    const started = Date.now();
    for (const sql of FILL) await db.query(sql);
    await db.query('VACUUM ANALYZE');
    process.stdout.write(
      `filled ${MESSAGES} message logs and the rest in ${((Date.now() - started) / 1000).toFixed(0)} s\n\n`,
    );
    for (const { name, plan } of await explainAll(db)) {
      process.stdout.write(`### ${name}\n${plan.join('\n')}\n\n`);
    }
  } finally {
    await db.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`idle-explain failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
