import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import {
  amqpClientFor,
  commonEnvSchema,
  createLogger,
  derivedUlid,
  loadConfig,
  type CommonConfig,
} from '@bm/platform';
import { testEnv, waitFor } from '@bm/platform/testing';
import { CONSUMER_QUEUES, DIRECT_STATUS_ROUTING_KEY, WEBHOOK_EVENTS } from '@bm/contracts';
import { SANDBOX_FAULT_SUFFIXES } from '../support/sandbox-suffixes';
import { ADMIN_TOKEN, Cluster, type ServiceName } from './cluster';

/*
 * The fault suite: a campaign, a stream of single sends and the sandbox's status webhooks run while every
 * service in turn is killed with SIGKILL and started again. Afterwards every accepted send and every campaign
 * recipient has ended exactly once (the sandbox received each at most once), and every event the services
 * committed reached the client's receiver. `FAULTS=full` (pnpm test:faults) restarts each killed service 3 s
 * later, kills messaging a second time twice within 10 s, and adds a larger campaign and outages of RabbitMQ,
 * PostgreSQL and Redis of 60 s each while the sandbox retries a refused webhook every 30 s, as the real network
 * does (so the refused reports come back after the reconciliation window, and an answer in hand must decide);
 * those outages touch the machine's shared services: never in parallel with other work.
 *
 * During every fault a customer also writes STOP (through the sandbox, signed, as the upstream would), and the
 * sandbox reports each status in a webhook call of its own. Afterwards every `delivered` report the ingress
 * acknowledged is applied (the message is delivered or read) and its status webhook reached the client, every
 * STOP the ingress acknowledged is in the campaign's opt-out list, and every dead-letter queue is empty: an
 * outage makes consumers wait, it never parks work. Last, a malformed internal event published by the suite is
 * dead-lettered after its attempts, alone, and a replay runs it through its consumer again.
 *
 * The table has a row per fault. After each fault's recovery the suite takes a cutoff and, before the next
 * fault, waits until the work accepted before it has settled (single sends final, recipients whose message
 * ended ended in the campaign too, committed events at the receiver); a fault's window runs from the previous
 * cutoff to its own, the last one to the end. Every lost or doubled item is counted in the row of the window
 * its last recorded step fell in: a single send's acceptance, an event's commit, a recipient's extra upstream
 * send or, for a recipient that never ended, its last update; one with no such time gets a row of its own.
 * Failed is an end: the summary line says how many sends and recipients ended failed, and how many of those
 * recipients never reached the upstream (a messaging kill leaves "outcome unknown" what was in the upstream call
 * or due within 100 ms of its claim; messages waiting for their slot longer are recorded so and sent again).
 * A send of unknown outcome that the upstream took is settled by the status reports naming its attempt, so each
 * row also counts the recipients that ended failed as "outcome unknown" although the upstream accepted their send
 * (placed by that acceptance): a false failure, which the client would likely send again by hand. The messaging
 * kill must leave none; a send that never reached the upstream fails after the reconciliation window (20 s here).
 */
const FULL = process.env.FAULTS === 'full';
/**
 * `FAULTS_ONLY=redis` or `FAULTS_ONLY=messaging,postgres` (parts of faults' names) runs only the faults named, with
 * the short campaign: to look into one.
 */
const ONLY = process.env.FAULTS_ONLY?.toLowerCase();
const RECIPIENTS = FULL && ONLY === undefined ? 5_000 : 400;
/**
 * The campaign's number sends this many a second (the single sends have a fast number of their own), so the
 * campaign is still sending through the faults: 400 take about 33 s (the kills), 5,000 about 7 min (the kills
 * and the outages of RabbitMQ, PostgreSQL and Redis that follow them).
 */
const CAMPAIGN_MPS = 12;
/** How long the suite waits, after a fault's recovery, for the work accepted so far to settle. */
const SETTLE_MS = FULL ? 60_000 : 30_000;
/** The campaign service goes second, while most of its recipients are certainly still pending. */
const KILLED_ALL: ServiceName[] = [
  'gateway',
  'campaign',
  'messaging',
  'webhook-ingress',
  'webhook-dispatcher',
];
const chosen = (fault: string) =>
  ONLY === undefined || ONLY.split(',').some((part) => fault.toLowerCase().includes(part.trim()));
const KILLED = KILLED_ALL.filter((name) => chosen(`kill -9 ${name}`));
const DOUBLE_KILL = 'kill -9 messaging twice within 10 s, restarted 3 s after each';
const FINAL = ['sent', 'delivered', 'read', 'failed'];
/** How long each shared service stays stopped in the full form. */
const OUTAGE_MS = 60_000;
/** How long a killed service stays down before it is started again. */
const RESTART_AFTER_MS = FULL ? 3_000 : 500;
/** The full form's refused webhooks come back this often, as the real network's do. */
const WEBHOOK_RETRY_MS = '30000';
/** The cluster's own queue names, so the run's other test files (same prefix) never share its dead-letter queues. */
const PREFIX = `${testEnv().AMQP_PREFIX}.faults`;
const SENT = ['sent', 'delivered', 'read'];

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
    fault: 'RabbitMQ stopped 60 s',
    stop: 'rabbitmqctl stop_app',
    start: 'rabbitmqctl start_app',
    inHealth: false,
  },
  { fault: 'PostgreSQL stopped 60 s', stop: `${PG} stop -m fast`, start: `${PG} start`, inHealth: true },
  {
    fault: 'Redis stopped 60 s',
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

/**
 * Phones `1415<exchange digit><6 digits>`, counting up: campaign recipients and single sends draw from
 * series with different exchange digits, so the two never share a phone and a phone the sandbox saw twice
 * is a duplicate, never a coincidence.
 */
function phoneSeries(exchangeDigit: '2' | '3' | '4'): () => string {
  let n = 0;
  return () => {
    for (;;) {
      const phone = `1415${exchangeDigit}${String(n).padStart(6, '0')}`;
      n += 1;
      // The sandbox's fault-pattern suffixes are off in this cluster, and avoided all the same.
      if (!SANDBOX_FAULT_SUFFIXES.test(phone)) return phone;
    }
  };
}

const cluster = new Cluster({
  env: {
    AMQP_PREFIX: PREFIX,
    ...(FULL && {
      SANDBOX_WEBHOOK_RETRY_BASE_MS: WEBHOOK_RETRY_MS,
      SANDBOX_WEBHOOK_RETRY_MAX_MS: WEBHOOK_RETRY_MS,
    }),
  },
});
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

/**
 * The status events messaging committed for a tenant's messages that it sent after their commit rather than
 * through its outbox: one per status in `statuses` a message reached (its time column set, before `before` when
 * given), with the id its message and status give (`statusEvent` in messaging). Those that went through the outbox
 * instead (the broker away) carry the same ids.
 */
async function reachedStatusEvents(
  tenantId: number,
  statuses: ReadonlyArray<'sent' | 'delivered' | 'read'>,
  before?: Date,
): Promise<Array<{ messageLogId: string; messageId: string; at: number }>> {
  const rows = await query<{ id: string; created_at: Date } & Record<string, Date | null>>(
    `SELECT id::text AS id, created_at, sent_at, delivered_at, read_at FROM messaging.message_logs
      WHERE tenant_id = $1`,
    [tenantId],
  );
  return rows.flatMap((r) =>
    statuses.flatMap((status) => {
      const at = r[`${status}_at`];
      if (!(at instanceof Date) || (before !== undefined && at >= before)) return [];
      const messageId = derivedUlid(r.created_at.getTime(), `message.status_updated:${r.id}:${status}`);
      return [{ messageLogId: r.id, messageId, at: at.getTime() }];
    }),
  );
}

type Admin = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: { data?: Record<string, unknown> } }>;

interface ChangeValue {
  statuses?: Array<{ id?: string }>;
  messages?: Array<{ from?: string }>;
}

/** The `value` objects of an upstream webhook body (`entry[].changes[].value`). */
function valuesOf(body: unknown): ChangeValue[] {
  const entries = (body as { entry?: Array<{ changes?: Array<{ value?: ChangeValue }> }> }).entry ?? [];
  return entries.flatMap((e) => (e.changes ?? []).flatMap((c) => (c.value ? [c.value] : [])));
}

/** The bodies of the sandbox's webhooks of a kind (`status.delivered`, `inbound`) that the ingress acknowledged. */
async function acknowledgedWebhooks(sandbox: string, kind: string): Promise<ChangeValue[]> {
  const res = await fetch(`${sandbox}/_sandbox/webhooks?kind=${kind}`);
  const records = ((await res.json()) as { data: Array<{ delivered: boolean; body: unknown }> }).data;
  return records.filter((w) => w.delivered).flatMap((w) => valuesOf(w.body));
}

/** What became of the work the ingress acknowledged, and what is parked. */
interface OutageOutcome {
  deliveredAcknowledged: number;
  /** Provider ids of messages whose acknowledged `delivered` report was not applied (neither delivered nor read). */
  unapplied: string[];
  /**
   * Of those, the ones messaging had already failed as "outcome unknown" (a messaging kill during their upstream
   * call): the upstream took them, and reconciling them from its reports is issue 19's; counted, not held here.
   */
  failedAsUnknown: number;
  /** Provider ids of applied ones whose delivered (or read) webhook never reached the client. */
  webhooksMissing: string[];
  stopsAcknowledged: number;
  /** Phones whose acknowledged STOP is not in the campaign's opt-out list. */
  stopsMissing: string[];
  /** Messages in the cluster's dead-letter queues. */
  deadLetters: number;
}

/**
 * Every `delivered` report and STOP the ingress acknowledged, applied: the message delivered or read and its
 * webhook at the client, the phone opted out; and no message parked. Waits up to 90 s for the last of them, then
 * reports what is still missing.
 */
async function outageChecks(
  sandbox: string,
  tenantId: number,
  stopsSent: string[],
  admin: Admin,
): Promise<OutageOutcome> {
  const check = async (): Promise<OutageOutcome> => {
    const delivered = [
      ...new Set(
        (await acknowledgedWebhooks(sandbox, 'status.delivered')).flatMap((v) =>
          (v.statuses ?? []).map((s) => s.id ?? ''),
        ),
      ),
    ];
    const statuses = new Map(
      (
        await query<{ provider_message_id: string; id: string; status: string }>(
          `SELECT provider_message_id, id::text AS id, status FROM messaging.message_logs
            WHERE provider_message_id = ANY($1::text[])`,
          [delivered],
        )
      ).map((r) => [r.provider_message_id, r]),
    );
    const events = new Map<string, string[]>();
    for (const e of await query<{ message_log_id: string; message_id: string }>(
      `SELECT payload->>'message_log_id' AS message_log_id, message_id::text AS message_id FROM messaging.outbox
        WHERE routing_key IN ('message.status_updated', '${DIRECT_STATUS_ROUTING_KEY}')
          AND payload->>'status' IN ('delivered', 'read')
          AND (payload->>'tenant_id')::int = $1`,
      [tenantId],
    ))
      events.set(e.message_log_id, [...(events.get(e.message_log_id) ?? []), e.message_id]);
    for (const e of await reachedStatusEvents(tenantId, ['delivered', 'read']))
      events.set(e.messageLogId, [...(events.get(e.messageLogId) ?? []), e.messageId]);
    const applied = (id: string) => ['delivered', 'read'].includes(statuses.get(id)?.status ?? 'missing');
    // A message failed as "outcome unknown" never learned its wamid: found by the phone the upstream sent to.
    const unmatched = delivered.filter((id) => !statuses.has(id));
    const sends = (
      (await (await fetch(`${sandbox}/_sandbox/sends`)).json()) as {
        data: Array<{ message_id?: string; wa_id?: string }>;
      }
    ).data;
    const phoneOf = new Map(sends.map((send) => [send.message_id ?? '', send.wa_id ?? '']));
    const failedPhones = new Set(
      (
        await query<{ phone: string }>(
          `SELECT regexp_replace(to_phone, '\\D', '', 'g') AS phone FROM messaging.message_logs
            WHERE tenant_id = $1 AND status = 'failed' AND regexp_replace(to_phone, '\\D', '', 'g') = ANY($2::text[])`,
          [tenantId, unmatched.map((id) => phoneOf.get(id) ?? '')],
        )
      ).map((r) => r.phone),
    );
    const failedAsUnknown = (id: string) =>
      statuses.get(id)?.status === 'failed' || failedPhones.has(phoneOf.get(id) ?? '');
    const stops = new Set(
      (await acknowledgedWebhooks(sandbox, 'inbound')).flatMap((v) => (v.messages ?? []).map((m) => m.from)),
    );
    const optedOut = new Set(
      (
        await query<{ phone: string }>(
          `SELECT regexp_replace(phone, '\\D', '', 'g') AS phone FROM campaign.opt_outs WHERE tenant_id = $1`,
          [tenantId],
        )
      ).map((r) => r.phone),
    );
    const acknowledgedStops = stopsSent.filter((phone) => stops.has(phone));
    const queues = (await admin('GET', '/admin/v1/dead-letters')).body.data?.queues as
      Array<{ dead_letters: number }> | undefined;
    return {
      deliveredAcknowledged: delivered.length,
      unapplied: delivered.filter((id) => !applied(id) && !failedAsUnknown(id)),
      failedAsUnknown: delivered.filter(failedAsUnknown).length,
      webhooksMissing: delivered.filter(
        (id) =>
          applied(id) &&
          !(events.get(statuses.get(id)!.id) ?? []).some((eventId) => received.has(`evt_${eventId}`)),
      ),
      stopsAcknowledged: acknowledgedStops.length,
      stopsMissing: acknowledgedStops.filter((phone) => !optedOut.has(phone)),
      deadLetters: queues === undefined ? -1 : queues.reduce((n, q) => n + q.dead_letters, 0),
    };
  };
  const done = (o: OutageOutcome) =>
    o.unapplied.length + o.webhooksMissing.length + o.stopsMissing.length === 0 &&
    o.stopsAcknowledged === stopsSent.length &&
    o.deadLetters === 0;
  return waitFor(
    async () => {
      const outcome = await check();
      return done(outcome) ? outcome : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500, what: 'acknowledged reports and STOPs applied' },
  ).catch(() => check());
}

/**
 * A genuinely poison message: a live-chat request without its required fields, as a producer with a bug would
 * publish it. Its consumer refuses it on each of its attempts and parks it, the only message parked anywhere;
 * a replay runs it through the same consumer again, which parks it again (replayed once), never looping.
 */
async function poisonIsParkedAndReplayed(admin: Admin, tenantId: number): Promise<void> {
  // The cluster's own prefix and (test) queue expiry, so the exchange is declared as the services declare it.
  const config = loadConfig<CommonConfig>(commonEnvSchema, testEnv({ AMQP_PREFIX: PREFIX }));
  const broker = amqpClientFor(config, createLogger('faults-poison', 'silent'));
  await broker.connect();
  try {
    const id = `poison-${Date.now()}`;
    await broker.publish('live_chat.requested', { event_id: id, tenant_id: tenantId }, { messageId: id });
    const parked = (replays: number) =>
      waitFor(
        async () => {
          const res = await admin('GET', '/admin/v1/dead-letters/ingress.live-chat?limit=10');
          const messages = (res.body.data?.messages ?? []) as Array<{ message_id: string; replays: number }>;
          return messages.find((m) => m.message_id === id && m.replays === replays);
        },
        { timeoutMs: 60_000, intervalMs: 250, what: `the poison message parked (replayed ${replays} times)` },
      );
    const attempts = CONSUMER_QUEUES['ingress.live-chat'].retry.maxDeliveries;
    expect(await parked(0)).toMatchObject({
      attempts,
      error: 'The request is invalid',
      routing_key: 'live_chat.requested',
    });
    const queues = (await admin('GET', '/admin/v1/dead-letters')).body.data!.queues as Array<{
      dead_letters: number;
    }>;
    expect(queues.filter((q) => q.dead_letters > 0)).toEqual([
      { queue: 'ingress.live-chat', service: 'ingress', dead_letters: 1 },
    ]);
    const replayed = await admin('POST', '/admin/v1/dead-letters/ingress.live-chat/replay');
    expect(replayed.body.data).toEqual({ queue: 'ingress.live-chat', replayed: 1, remaining: 0 });
    expect(await parked(1)).toMatchObject({ attempts });
  } finally {
    await broker.close();
  }
}

/** A fault injected, and what the suite saw around it. */
interface Fault {
  name: string;
  /** Campaign recipients not yet ended (sent or failed) when the fault was injected. */
  pending: number;
  /** When it was injected, in ms since the campaign was accepted. */
  at: number;
  /**
   * How long the work accepted before its recovery took to settle, waited for before the next fault: null
   * when it did not within SETTLE_MS, undefined after the last fault (the final checks wait instead).
   */
  settledMs?: number | null;
}

type Kind = 'send' | 'recipient' | 'event';
/** A lost or doubled item, with the time (ms) of its last recorded step when there is one. */
interface Item {
  kind: Kind;
  at: number | undefined;
}

const ms = (value: Date | string | null | undefined): number | undefined =>
  value === null || value === undefined ? undefined : new Date(value).getTime();

const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const settledCell = (value: number | null | undefined) =>
  value === undefined
    ? '(the final checks)'
    : value === null
      ? `**not within ${seconds(SETTLE_MS)}**`
      : `in ${seconds(value)}`;

/** "0", or the count with what it is made of: "3 (send 1, event 2)". */
function cell(items: Item[]): string {
  if (items.length === 0) return '0';
  const kinds = (['send', 'recipient', 'event'] as const)
    .map((kind) => [kind, items.filter((i) => i.kind === kind).length] as const)
    .filter(([, n]) => n > 0);
  return `${items.length} (${kinds.map(([kind, n]) => `${kind} ${n}`).join(', ')})`;
}

it(
  'loses and doubles nothing while each service in turn is killed and restarted',
  async () => {
    const gateway = () => cluster.url('gateway');
    const admin = (method: string, p: string, body?: unknown) =>
      call(`${gateway()}${p}`, method, ADMIN_TOKEN, body);
    const tenant = (await admin('POST', '/admin/v1/tenants', { name: 'faults', plan: 'unlimited' })).body
      .data!;
    const tenantId = tenant.tenant_id as number;
    const key = (await admin('POST', `/admin/v1/tenants/${tenantId}/api-keys`)).body.data!.api_key as string;
    const suffix = String(Date.now()).slice(-9);
    const channelAccount = async (n: number, throughput: number) => {
      const res = await admin('POST', `/admin/v1/tenants/${tenantId}/channel-accounts`, {
        phone_number_id: `5${suffix}${n}`,
        waba_id: `4${suffix}${n}`,
        display_phone_number: `1555000123${n}`,
        access_token: 'fault-token',
        tier: 'TIER_100K',
        throughput_per_second: throughput,
      });
      const id = res.body.data?.channel_account_id;
      if (typeof id !== 'string')
        throw new Error(`channel account: ${res.status} ${JSON.stringify(res.body)}`);
      return id;
    };
    const sendAccount = await channelAccount(1, 200);
    const campaignAccount = await channelAccount(2, CAMPAIGN_MPS);
    const api = (method: string, p: string, body?: unknown) => call(`${gateway()}${p}`, method, key, body);
    const { port } = receiver.address() as { port: number };
    expect(
      (await api('PUT', '/api/v1/webhooks/settings', { url: `http://127.0.0.1:${port}/hook` })).status,
    ).toBe(200);

    const campaignPhone = phoneSeries('2');
    const singlePhone = phoneSeries('3');
    // Customers writing STOP during the faults, each from a phone of its own (never a recipient), to the
    // campaign's number. The sandbox retries the webhook until the ingress acknowledges it; its records say which
    // were acknowledged, so the request is not awaited.
    const stopPhone = phoneSeries('4');
    const stopsSent: string[] = [];
    const sendStop = () => {
      const phone = stopPhone();
      stopsSent.push(phone);
      void fetch(`${cluster.url('upstream-sandbox')}/_sandbox/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone_number_id: `5${suffix}2`, from: phone, text: 'STOP' }),
      }).catch(() => undefined);
    };
    const campaignPhones = Array.from({ length: RECIPIENTS }, campaignPhone);
    const created = await api('POST', '/api/v1/campaigns', {
      channel_account_id: campaignAccount,
      message_type: 'template',
      template_name: 'hello_world',
      recipients: campaignPhones.map((phone) => ({ phone })),
    });
    expect(created.status).toBe(202);
    const campaignId = created.body.data!.campaign_id as string;
    const campaignAt = Date.now();

    // Single sends all along, each to a phone of its own; a refusal while the gateway or messaging is down was
    // never accepted. `at` is when the acceptance came back: the send was committed by then.
    const accepted = new Map<string, { phone: string; at: number }>();
    let sending = true;
    const stream = (async () => {
      while (sending) {
        const phone = singlePhone();
        const res = await api('POST', '/api/v1/messages/send', {
          channel_account_id: sendAccount,
          phone,
          message_type: 'template',
          data: { name: 'hello_world' },
        }).catch(() => undefined);
        if (res?.status === 202)
          accepted.set(String(res.body.data!.message_log_id), { phone, at: Date.now() });
        await sleep(40);
      }
    })();

    /** The events this tenant's services committed (to either outbox), with when, up to `before`. */
    const committedEvents = async (before?: Date) => {
      const outboxed = (
        await query<{ message_id: string; created_at: Date }>(
          // This tenant's events (the run's other tests share the database, with tenants of their own).
          `SELECT message_id, created_at FROM messaging.outbox
            WHERE routing_key = ANY($1::text[]) AND (payload->>'tenant_id')::int = $2
              AND ($3::timestamptz IS NULL OR created_at < $3)
           UNION ALL SELECT message_id, created_at FROM campaign.outbox
            WHERE routing_key = ANY($1::text[]) AND (payload->>'tenant_id')::int = $2
              AND ($3::timestamptz IS NULL OR created_at < $3)`,
          // A status event of no campaign recipient is committed under its own key.
          [[...WEBHOOK_EVENTS, DIRECT_STATUS_ROUTING_KEY], tenantId, before ?? null],
        )
      ).map((r) => ({ id: `evt_${r.message_id}`, at: r.created_at.getTime() }));
      // Status events sent after their commit: found by the statuses their messages reached (one copy each).
      const seen = new Set(outboxed.map((e) => e.id));
      const sent = (await reachedStatusEvents(tenantId, ['sent', 'delivered', 'read'], before))
        .map((e) => ({ id: `evt_${e.messageId}`, at: e.at }))
        .filter((e) => !seen.has(e.id));
      return [...outboxed, ...sent];
    };

    /**
     * How much of the work accepted before `cutoff` has not settled: single sends not final, recipients whose
     * message ended in messaging but not in the campaign, committed events not at the receiver.
     */
    const unsettled = async (cutoff: number): Promise<number> => {
      const ids = [...accepted].filter(([, s]) => s.at < cutoff).map(([id]) => id);
      const [row] = await query<{ sends: string; recipients: string }>(
        `SELECT (SELECT count(*) FROM messaging.message_logs
                  WHERE id = ANY($1::bigint[]) AND status = ANY($2::text[])) AS sends,
                (SELECT count(*) FROM messaging.message_logs m
                   JOIN campaign.recipients r ON r.id::text = m.campaign_recipient_id
                  WHERE m.campaign_id = $3 AND m.status = ANY($2::text[])
                    AND coalesce(m.sent_at, m.failed_at) < $4 AND r.status NOT IN ('sent', 'failed')) AS recipients`,
        [ids, FINAL, campaignId, new Date(cutoff)],
      );
      const events = (await committedEvents(new Date(cutoff))).filter((e) => !received.has(e.id)).length;
      return ids.length - Number(row.sends) + Number(row.recipients) + events;
    };

    const recipientsPending = async () =>
      RECIPIENTS -
      Number(
        (
          await query<{ n: string }>(
            `SELECT count(*) AS n FROM campaign.recipients WHERE campaign_id = $1 AND status IN ('sent', 'failed')`,
            [campaignId],
          )
        )[0].n,
      );

    // Each fault: note how much of the campaign is still pending, inject it, wait for the recovery, then (but
    // after the last) let the work accepted so far settle before the next; that moment ends its window.
    const faults: Fault[] = [];
    const boundaries: number[] = [];
    const inject = async (name: string, last: boolean, fault: () => Promise<void>) => {
      const pending = await recipientsPending();
      const entry: Fault = { name, at: Date.now() - campaignAt, pending };
      faults.push(entry);
      await fault();
      if (last) return;
      await sleep(500);
      const cutoff = Date.now();
      boundaries.push(cutoff);
      entry.settledMs = await waitFor(async () => (await unsettled(cutoff)) === 0 || undefined, {
        timeoutMs: SETTLE_MS,
        intervalMs: 250,
        what: `settled after: ${name}`,
      }).then(
        () => Date.now() - cutoff,
        () => null,
      );
    };

    const outages = FULL ? OUTAGES.filter((o) => chosen(o.fault)) : [];
    const doubleKill = FULL && chosen(DOUBLE_KILL);
    for (const [i, name] of KILLED.entries()) {
      await sleep(1_000);
      await inject(
        `kill -9 ${name}, restarted`,
        i === KILLED.length - 1 && !doubleKill && outages.length === 0,
        async () => {
          await cluster.kill(name);
          sendStop();
          await sleep(RESTART_AFTER_MS);
          await cluster.startService(name);
        },
      );
    }
    if (doubleKill) {
      await sleep(1_000);
      await inject(DOUBLE_KILL, outages.length === 0, async () => {
        for (const _ of [1, 2]) {
          await cluster.kill('messaging');
          sendStop();
          await sleep(RESTART_AFTER_MS);
          await cluster.startService('messaging');
          await sleep(4_000);
        }
      });
    }
    for (const [i, outage] of outages.entries()) {
      await sleep(2_000);
      const name = `${outage.fault}${outage.inHealth ? ' (/api/health degraded, then healthy)' : ''}`;
      await inject(name, i === outages.length - 1, async () => {
        sh(outage.stop);
        let degraded = false;
        const until = Date.now() + OUTAGE_MS;
        // A STOP at the start of the outage and every 5 s of it.
        let nextStop = Date.now();
        while (Date.now() < until) {
          if (Date.now() >= nextStop) {
            sendStop();
            nextStop += 5_000;
          }
          const health = await fetch(`${gateway()}/api/health`).catch(() => undefined);
          degraded ||= health?.status === 503;
          await sleep(500);
        }
        sh(outage.start);
        await waitFor(
          async () => (await fetch(`${gateway()}/api/health`).catch(() => undefined))?.status === 200,
          { timeoutMs: 60_000, what: `healthy after: ${outage.fault}` },
        );
        if (outage.inHealth)
          expect({ fault: outage.fault, degraded }).toEqual({ fault: outage.fault, degraded: true });
      });
    }
    await sleep(1_000);
    sending = false;
    await stream;

    // Everything settles: the campaign completes, every accepted send reaches a final status, every committed
    // event reaches the receiver. A wait that runs out is not the verdict: the counts below are. The campaign's
    // number sends CAMPAIGN_MPS a second (96% of it, paced), so what is still pending needs that long at least:
    // after three minutes of outages, the full form's campaign has thousands left when the faults end.
    const leftMs = ((await recipientsPending()) / (CAMPAIGN_MPS * 0.96)) * 1000;
    const completed = await waitFor(
      async () =>
        (await api('GET', `/api/v1/campaigns/${campaignId}`)).body.data?.status === 'completed' || undefined,
      { timeoutMs: leftMs + (FULL ? 120_000 : 60_000), intervalMs: 250, what: 'campaign completed' },
    ).then(
      () => true,
      () => false,
    );
    // The sandbox's status webhooks (and its retries of those refused during the ingress kill) may still commit
    // events: the check covers everything committed up to a cutoff at which all had settled and after which
    // nothing new was committed for a second, so an event committed a moment before the snapshot is not taken
    // for lost. Without such a quiet second within the wait, everything committed so far is checked.
    let finalCutoff: number | undefined;
    await waitFor(
      async () => {
        const cutoff = Date.now();
        if ((await unsettled(cutoff)) !== 0) return undefined;
        await sleep(1_000);
        const later = (await committedEvents()).filter((e) => e.at >= cutoff).length;
        if (later > 0) return undefined;
        finalCutoff = cutoff;
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250, what: 'everything settled' },
    ).catch(() => undefined);

    const outage = await outageChecks(cluster.url('upstream-sandbox'), tenantId, stopsSent, admin);

    // What the upstream accepted, per phone, in order.
    const sandbox = (await (await fetch(`${cluster.url('upstream-sandbox')}/_sandbox/sends`)).json()) as {
      data: Array<{ wa_id?: string; at: string; result: string }>;
    };
    const upstream = new Map<string, number[]>();
    for (const s of sandbox.data)
      if (s.result === 'accepted' && s.wa_id !== undefined)
        upstream.set(s.wa_id, [...(upstream.get(s.wa_id) ?? []), Date.parse(s.at)]);
    for (const times of upstream.values()) times.sort((a, b) => a - b);

    // Duplicated: every upstream send to a phone after its first. The two phone series never meet, and each
    // single send has a phone of its own.
    const campaignSet = new Set(campaignPhones);
    const duplicated: Item[] = [];
    const doubled: string[] = [];
    for (const [phone, times] of upstream) {
      if (times.length < 2) continue;
      doubled.push(phone);
      for (const at of times.slice(1))
        duplicated.push({ kind: campaignSet.has(phone) ? 'recipient' : 'send', at });
    }

    // Single sends: each accepted one final, and one marked sent was taken by the upstream.
    const lost: Item[] = [];
    const ids = [...accepted.keys()];
    const statuses = new Map(
      (
        await query<{ id: string; status: string }>(
          `SELECT id::text AS id, status FROM messaging.message_logs WHERE id = ANY($1::bigint[])`,
          [ids],
        )
      ).map((r) => [r.id, r.status]),
    );
    for (const [id, send] of accepted) {
      const status = statuses.get(id) ?? 'missing';
      if (!FINAL.includes(status) || (SENT.includes(status) && !upstream.has(send.phone)))
        lost.push({ kind: 'send', at: send.at });
    }

    // Recipients, each through the public API: one row per phone, ended as sent or failed, and one marked sent
    // was taken by the upstream.
    const rows = new Map<string, Array<{ status: string; message_log_id: string | null }>>();
    for (let page = 1; ; page += 1) {
      const res = await api('GET', `/api/v1/campaigns/${campaignId}/recipients?page=${page}&per_page=100`);
      expect(res.status).toBe(200);
      const data = res.body.data as {
        recipients: Array<{ phone: string; status: string; message_log_id: string | null }>;
        pagination: { last_page: number };
      };
      for (const r of data.recipients) rows.set(r.phone, [...(rows.get(r.phone) ?? []), r]);
      if (page >= data.pagination.last_page) break;
    }
    const lostRecipients: string[] = [];
    for (const phone of campaignPhones) {
      const mine = rows.get(phone) ?? [];
      const ended = mine.filter((r) => r.status === 'sent' || r.status === 'failed');
      if (ended.length === 0 || ended.some((r) => r.status === 'sent' && !upstream.has(phone)))
        lostRecipients.push(phone);
      for (let extra = 1; extra < mine.length; extra += 1)
        duplicated.push({ kind: 'recipient', at: undefined });
    }
    if (lostRecipients.length > 0) {
      // The last time anything happened to each: handed to messaging, or its message's last update there.
      const last = new Map(
        (
          await query<{ phone: string; at: Date | null }>(
            `SELECT r.phone, greatest(r.requested_at, m.updated_at) AS at FROM campaign.recipients r
               LEFT JOIN messaging.message_logs m ON m.campaign_recipient_id = r.id::text
              WHERE r.campaign_id = $1 AND r.phone = ANY($2::text[])`,
            [campaignId, lostRecipients],
          )
        ).map((r) => [r.phone, ms(r.at)]),
      );
      for (const phone of lostRecipients) lost.push({ kind: 'recipient', at: last.get(phone) });
    }

    // False failures: recipients failed as "outcome unknown" whose send the upstream accepted.
    const failedUnknown = new Set(
      (
        await query<{ to_phone: string }>(
          `SELECT to_phone FROM messaging.message_logs
            WHERE campaign_id = $1 AND status = 'failed' AND error_message LIKE '%outcome unknown%'`,
          [campaignId],
        )
      ).map((r) => r.to_phone.replace(/\D/g, '')),
    );
    const falselyFailed: Item[] = campaignPhones
      .filter((p) => failedUnknown.has(p) && upstream.has(p))
      .map((p) => ({ kind: 'recipient', at: upstream.get(p)![0] }));

    // Every event the services committed reached the receiver at least once.
    const committed = await committedEvents(finalCutoff === undefined ? undefined : new Date(finalCutoff));
    for (const e of committed) if (!received.has(e.id)) lost.push({ kind: 'event', at: e.at });

    // The table: one row per fault's window, the items whose time fell in it; then any without a time.
    const windowOf = (at: number | undefined) =>
      at === undefined ? undefined : boundaries.filter((b) => b <= at).length;
    const inWindow = (items: Item[], w: number | undefined) => items.filter((i) => windowOf(i.at) === w);
    const work = (w: number) =>
      [
        [...accepted.values()].filter((s) => windowOf(s.at) === w).length,
        campaignPhones.filter((p) => upstream.has(p) && windowOf(upstream.get(p)![0]) === w).length,
        committed.filter((e) => windowOf(e.at) === w).length,
      ].join(' / ');
    const rowsOut = faults.map(
      (f, w) =>
        `| ${f.name} | ${seconds(f.at)} | ${settledCell(f.settledMs)} | ${f.pending} | ` +
        `${work(w)} | ${cell(inWindow(lost, w))} | ${cell(inWindow(duplicated, w))} | ` +
        `${inWindow(falselyFailed, w).length} |`,
    );
    const untimed = [inWindow(lost, undefined), inWindow(duplicated, undefined)];
    if (untimed.some((items) => items.length > 0))
      rowsOut.push(
        `| no time to place it in a window | | | | | ${cell(untimed[0])} | ${cell(untimed[1])} | |`,
      );
    const of = (kind: Kind) => lost.filter((i) => i.kind === kind).length;
    const reached = campaignPhones.filter((p) => upstream.has(p)).length;
    const failedSends = [...statuses.values()].filter((status) => status === 'failed').length;
    const failedRecipients = campaignPhones.filter((p) => rows.get(p)?.some((r) => r.status === 'failed'));
    const failedUnsent = failedRecipients.filter((p) => !upstream.has(p)).length;
    process.stdout.write(
      `\nfault suite (${FULL ? 'full' : 'short'}): ${RECIPIENTS} campaign recipients (their number at ` +
        `${CAMPAIGN_MPS}/s), ${ids.length} single sends, ${committed.length} committed events; ended failed: ` +
        `${failedSends} single sends, ${failedRecipients.length} recipients (${failedUnsent} of them never ` +
        `reached the upstream, ${falselyFailed.length} failed as unknown although the upstream accepted them)\n` +
        `| fault injected | at (after the campaign's 202) | settled before the next fault | recipients pending ` +
        `| its window: sends / recipients sent / events | lost | duplicated ` +
        `| recipients failed as unknown whose send the upstream accepted |\n|---|---|---|---|---|---|---|---|\n` +
        `${rowsOut.join('\n')}\n` +
        `| **all of the above** (lost: sends ${of('send')}, recipients ${of('recipient')}, events ` +
        `${of('event')}) | | | | ${ids.length} / ${reached} / ${committed.length} | ` +
        `**${lost.length}** | **${duplicated.length}** | **${falselyFailed.length}** |\n`,
    );
    if (doubled.length > 0) process.stdout.write(`phones sent twice: ${doubled.join(', ')}\n`);
    // Where single sends that never ended stand: their queued sub-state, by columns.
    const stuck = [...accepted.keys()].filter((id) => !FINAL.includes(statuses.get(id) ?? 'missing'));
    if (stuck.length > 0)
      process.stdout.write(
        `single sends not final (${stuck.length}), by state:\n${JSON.stringify(
          await query(
            `SELECT status, attempt_started_at IS NOT NULL AS claimed, awaiting_slot, claimed_by IS NOT NULL AS named,
                    claimed_by IN (SELECT id FROM messaging.send_workers WHERE lease_until >= now()) AS lease_live,
                    next_attempt_at > now() AS retry_later, resent_after_unknown_outcome AS resent, count(*)::int,
                    max(send_attempts) AS attempts, min(updated_at) AS oldest_update, max(updated_at) AS newest_update,
                    (array_agg(error_message))[1] AS an_error
               FROM messaging.message_logs WHERE id = ANY($1::bigint[]) GROUP BY 1, 2, 3, 4, 5, 6, 7`,
            [stuck],
          ),
        )}\n`,
      );
    // Why the campaign's failed messages failed, and in which fault's window (by when they failed).
    const reasons = new Map<string, number>();
    for (const r of await query<{ error_message: string | null; failed_at: Date | null }>(
      `SELECT error_message, failed_at FROM messaging.message_logs WHERE campaign_id = $1 AND status = 'failed'`,
      [campaignId],
    )) {
      const w = windowOf(ms(r.failed_at));
      const key = `${w === undefined ? 'no time' : (faults[w]?.name ?? `window ${w}`)}: ${r.error_message ?? '-'}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    for (const [key, n] of reasons) process.stdout.write(`failed recipients, ${n} x ${key}\n`);
    process.stdout.write(
      `status reports and STOPs: ${outage.deliveredAcknowledged} \`delivered\` reports acknowledged by the ` +
        `ingress (${outage.unapplied.length} not applied, ${outage.failedAsUnknown} of messages failed as ` +
        `outcome unknown, ${outage.webhooksMissing.length} without their ` +
        `webhook at the client); ${outage.stopsAcknowledged} of ${stopsSent.length} STOPs acknowledged ` +
        `(${outage.stopsMissing.length} not applied); dead letters: ${outage.deadLetters}\n`,
    );
    if (outage.unapplied.length > 0) process.stdout.write(`unapplied: ${outage.unapplied.join(', ')}\n`);
    // Named, so that a miss can be followed through messaging's outbox and the dispatcher's deliveries.
    if (outage.webhooksMissing.length > 0)
      process.stdout.write(`without their webhook: ${outage.webhooksMissing.join(', ')}\n`);
    expect({
      unappliedReports: outage.unapplied.length,
      webhooksMissing: outage.webhooksMissing.length,
      stopsNotApplied: outage.stopsMissing,
      deadLetters: outage.deadLetters,
    }).toEqual({ unappliedReports: 0, webhooksMissing: 0, stopsNotApplied: [], deadLetters: 0 });
    expect(outage.stopsAcknowledged).toBe(stopsSent.length);

    await poisonIsParkedAndReplayed(admin, tenantId);

    expect({
      sendsLost: of('send'),
      recipientsLost: of('recipient'),
      eventsMissing: of('event'),
      duplicated: duplicated.length,
    }).toEqual({ sendsLost: 0, recipientsLost: 0, eventsMissing: 0, duplicated: 0 });
    const campaign = (await api('GET', `/api/v1/campaigns/${campaignId}`)).body.data!;
    expect({ completed, total: campaign.total_count }).toEqual({ completed: true, total: RECIPIENTS });
    expect(ids.length).toBeGreaterThan(20);
    // A crash costs seconds, not failures (issue 33): a send a killed worker held is taken over and sent again
    // when it never reached the upstream (0-13 of 400 and 17 of 5,000 failed before), and one the upstream took is
    // settled by the status reports naming its attempt (89 of 3,000 failed falsely before the attempt was named).
    expect({ failedUnsent, falselyFailed: falselyFailed.length }).toEqual({
      failedUnsent: 0,
      falselyFailed: 0,
    });
    // The campaign was still sending when its service was killed.
    const campaignKill = faults.find((f) => f.name.startsWith('kill -9 campaign'));
    if (campaignKill) expect(campaignKill.pending).toBeGreaterThan(0);
  },
  // Room for every wait to run out on a failing run, so the table is still printed.
  FULL ? 1_200_000 : 420_000,
);
