import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { AmqpClient, createLogger } from '@bm/platform';
import { freePort, testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import {
  asTenant,
  DISPATCHER_TEST_SETTINGS,
  isolatedWorld,
  migrateDispatcherOnce,
  newTenantId,
  startDispatcher,
  type IsolatedWorld,
  type TestDispatcher,
} from '../../services/webhook-dispatcher/test/factories/dispatcher';
import { statusUpdated } from '../../services/webhook-dispatcher/test/factories/events';
import { loadIngressConfig } from '../../services/webhook-ingress/src/config';
import { createIngressService, type IngressService } from '../../services/webhook-ingress/src/ingress';
import { allRecipients, phones, postCampaign, readCampaign, waitForCampaign } from '../support/campaigns';
import { collectEvents } from '../support/events';
import { migrateIngress } from '../support/ingress';
import { sandboxResultsByPhone } from '../support/messages';
import { ADMIN_TOKEN, campaignTestEnv, createTenant, startStack, type Stack } from '../support/stack';

/*
 * The built services (dist/start.js) as processes, each told to stop with SIGTERM in the middle of its work, as
 * Kubernetes does on a rollout: messaging while it takes sends, webhook-ingress while the upstream posts webhooks, a campaign worker while it
 * dispatches, the webhook dispatcher while it delivers, the gateway while it forwards sends. Each must exit 0
 * with every shutdown step finished within its bound (no `close failed` in its log), refuse only with 503 or
 * no connection, and lose and double nothing: what it acknowledged is finished, by it or by the replica that
 * takes over (in this process or another process), as another pod would.
 */
let stack: Stack;
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  // The campaign replica in this process only serves the API: campaign work runs in the spawned workers.
  stack = await startStack({ campaignEnv: { CAMPAIGN_ROLE: 'api' } });
}, 60_000);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await stack?.stop();
}, 60_000);

interface Spawned {
  child: ChildProcess;
  url: string;
  /** The JSON lines it logged (LOG_LEVEL warn: only warnings and errors). */
  logs: Array<Record<string, unknown>>;
  /** Its exit code; null when a signal ended it without its own handler. */
  exited: Promise<number | null>;
}

/** Starts the built service as a process on a free port and waits until it is ready. */
async function spawnService(service: string, portVar: string, env: Record<string, string>): Promise<Spawned> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, `../../services/${service}/dist/start.js`)], {
    env: {
      ...process.env,
      ...testEnv({ LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT_MS: '10000', ...env, [portVar]: String(port) }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const logs: Array<Record<string, unknown>> = [];
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines.filter(Boolean)) {
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          logs.push({ message: line });
        }
      }
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const outcome = await waitFor(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return 'exited';
      return (await fetch(`${url}/health/ready`).catch(() => undefined))?.ok && 'ready';
    },
    { timeoutMs: 60_000, intervalMs: 100, what: `${service} ready` },
  );
  if (outcome === 'exited') throw new Error(`${service} exited before ready: ${JSON.stringify(logs)}`);
  return { child, url, logs, exited };
}

/** Waits for the process to end; answers its exit code and the shutdown steps that failed or timed out. */
async function stopped(p: Spawned): Promise<{ exitCode: number | null; closeFailures: unknown[] }> {
  const exitCode = await p.exited;
  return { exitCode, closeFailures: p.logs.filter((l) => l.message === 'close failed') };
}

/**
 * Runs `send(i)` for i in [0, count), `concurrency` at a time, and sends SIGTERM to the process once `stopAfter`
 * of them were accepted (`send` answers the HTTP status, 0 for no connection). Answers every status seen.
 */
async function streamAndStop(
  p: Spawned,
  options: {
    count: number;
    concurrency: number;
    acceptedStatus: number;
    stopAfter: number;
    send: (i: number) => Promise<number>;
    onStop?: () => void;
  },
): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  let accepted = 0;
  let signalled = false;
  const worker = async () => {
    while (next < options.count) {
      const status = await options.send(next++);
      statuses.push(status);
      if (status === options.acceptedStatus) accepted += 1;
      if (accepted >= options.stopAfter && !signalled) {
        signalled = true;
        options.onStop?.();
        p.child.kill('SIGTERM');
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  if (!signalled) throw new Error(`only ${accepted} accepted, never stopped: ${statuses.join(',')}`);
  return statuses;
}

interface AcceptedSend {
  id: number;
  phone: string;
}

/**
 * POSTs a send of the hello_world template to `url` (the gateway, or messaging itself with internal headers) and
 * records it when accepted; answers the HTTP status, 0 when no connection took the request.
 */
async function sendTemplate(
  url: string,
  channelAccountId: string,
  headers: Record<string, string>,
  phone: string,
  accepted: AcceptedSend[],
): Promise<number> {
  try {
    const res = await fetch(`${url}/api/v1/messages/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        channel_account_id: channelAccountId,
        phone,
        message_type: 'template',
        data: { name: 'hello_world' },
      }),
    });
    const body = (await res.json()) as { data?: { message_log_id: number } };
    if (res.status === 202) accepted.push({ id: body.data!.message_log_id, phone });
    return res.status;
  } catch {
    return 0; // connection refused or closed before a request was taken
  }
}

/** Waits until every accepted send is sent (by the replica still running, for what the stopped one left). */
async function allSent(accepted: AcceptedSend[]): Promise<void> {
  await waitFor(
    async () => {
      const rows: Array<{ n: string }> = await stack.messaging[0].deps.dataSource.query(
        `SELECT count(*) AS n FROM messaging.message_logs WHERE id = ANY($1::bigint[]) AND status = 'sent'`,
        [accepted.map((a) => a.id)],
      );
      return Number(rows[0].n) === accepted.length;
    },
    { timeoutMs: 60_000, what: 'every accepted message sent' },
  );
}

it('messaging stopped with SIGTERM during a stream of sends loses and doubles nothing', async () => {
  // The tenant is made while the process starts.
  const [t, messaging] = await Promise.all([
    createTenant(stack, 'TIER_10K'),
    spawnService('messaging', 'MESSAGING_PORT', {
      UPSTREAM_BASE_URL: stack.sandboxUrl,
      SHUTDOWN_TIMEOUT_MS: '5000',
    }),
  ]);
  const internal = {
    [INTERNAL_HEADERS.token]: testEnv().INTERNAL_TOKEN!,
    [INTERNAL_HEADERS.tenantId]: String(t.tenantId),
  };
  const targets = phones(400);
  const accepted: AcceptedSend[] = [];
  const statuses = await streamAndStop(messaging, {
    count: targets.length,
    concurrency: 8,
    acceptedStatus: 202,
    stopAfter: 80,
    send: (i) => sendTemplate(messaging.url, t.channelAccountId, internal, targets[i], accepted),
  });
  expect(await stopped(messaging)).toEqual({ exitCode: 0, closeFailures: [] });
  expect(accepted.length).toBeGreaterThanOrEqual(80);
  // Refusals are 503 (the dependency-down envelope) or no connection at all, never a 5xx that accepted work.
  expect(statuses.filter((s) => s !== 202 && s !== 0 && s !== 503)).toEqual([]);

  // The replica still running (in this process) delivers whatever the stopped one left queued.
  await allSent(accepted);
  const results = await sandboxResultsByPhone(
    stack,
    accepted.map((a) => a.phone),
  );
  for (const { phone } of accepted)
    expect({ phone, results: results.get(phone) }).toEqual({ phone, results: ['accepted'] });
}, 90_000);

/** A status item of a message the upstream reports, in a signed webhook as the upstream posts it. */
function statusWebhook(wabaId: string, phoneNumberId: string, wamid: string): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
              statuses: [
                {
                  id: wamid,
                  status: 'delivered',
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: '14155550123',
                },
              ],
            },
          },
        ],
      },
    ],
  });
}

it('webhook-ingress stopped with SIGTERM while webhooks stream in stores every one it acknowledged, and each is split and published once', async () => {
  const t = await createTenant(stack, 'TIER_10K');
  await migrateIngress();
  const appSecret = `shutdown-secret-${uniqueSuffix()}`;
  const env = {
    MESSAGING_URL: stack.messagingUrl,
    INGRESS_APP_SECRET: appSecret,
    INGRESS_PROCESS_INTERVAL_MS: '50',
  };
  // The items as they reach the broker, to see that each acknowledged webhook was published.
  const published = await collectEvents(stack, ['inbound.status']);
  const ingress = await spawnService('webhook-ingress', 'INGRESS_PORT', env);

  const run = uniqueSuffix();
  const acked: Array<{ eventId: string; wamid: string }> = [];
  const statuses = await streamAndStop(ingress, {
    count: 500,
    concurrency: 8,
    acceptedStatus: 200,
    stopAfter: 150,
    send: async (i) => {
      const wamid = `wamid.shutdown.${run}.${i}`;
      const body = statusWebhook(t.wabaId, t.phoneNumberId, wamid);
      const signature = createHmac('sha256', appSecret).update(body).digest('hex');
      try {
        const res = await fetch(`${ingress.url}/api/webhooks/channel`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${signature}` },
          body,
        });
        const answer = (await res.json()) as { data?: { event_id: string } };
        if (res.status === 200) acked.push({ eventId: answer.data!.event_id, wamid });
        return res.status;
      } catch {
        return 0; // connection refused or closed: nothing was acknowledged, the upstream retries
      }
    },
  });
  expect(await stopped(ingress)).toEqual({ exitCode: 0, closeFailures: [] });
  expect(acked.length).toBeGreaterThanOrEqual(150);
  expect(statuses.filter((s) => s !== 200 && s !== 0 && s !== 503)).toEqual([]);

  // A 200 means the delivery was committed: every acknowledged one is stored, whatever the stop cut short.
  const db = stack.messaging[0].deps.dataSource;
  const ids = acked.map((a) => a.eventId);
  const stored: Array<{ n: string }> = await db.query(
    `SELECT count(*) AS n FROM ingress.inbound_events WHERE id = ANY($1::text[])`,
    [ids],
  );
  expect(Number(stored[0].n)).toBe(acked.length);

  // Another replica (in this process) splits and relays whatever the stopped one left.
  const replica: IngressService = await createIngressService(loadIngressConfig(testEnv(env)));
  cleanups.push(() => replica.close());
  await replica.startWorkers();
  const outcomes = await waitFor(
    async () => {
      const rows: Array<{ id: string; outcome: string; published_count: number }> = await db.query(
        `SELECT id, outcome, published_count FROM ingress.inbound_events WHERE id = ANY($1::text[])`,
        [ids],
      );
      return rows.every((r) => r.outcome !== 'pending') && rows;
    },
    { timeoutMs: 60_000, what: 'every acknowledged webhook split' },
  );
  expect(outcomes.filter((r) => r.outcome !== 'processed' || r.published_count !== 1)).toEqual([]);
  // One item per acknowledged webhook, on the broker: sent before the 200 (the row names it), or by the outbox.
  await waitFor(
    async () => {
      const rows: Array<{ n: string }> = await db.query(
        `SELECT count(*) AS n FROM ingress.inbound_events e
          WHERE e.id = ANY($1::text[])
            AND (e.sent_items IS NOT NULL OR EXISTS (
              SELECT 1 FROM ingress.published_items p JOIN ingress.outbox o ON o.message_id = p.item_event_id
               WHERE p.inbound_event_id = e.id AND o.published_at IS NOT NULL))`,
        [ids],
      );
      return Number(rows[0].n) === acked.length;
    },
    { timeoutMs: 30_000, what: 'every item relayed' },
  );
  const seen = await waitFor(
    () => {
      const mine = published.filter((e) => String(e.payload.provider_message_id).includes(run));
      const byWamid = new Map<string, Set<string>>();
      for (const e of mine) {
        const wamid = String(e.payload.provider_message_id);
        byWamid.set(wamid, (byWamid.get(wamid) ?? new Set()).add(String(e.payload.event_id)));
      }
      return acked.every((a) => byWamid.has(a.wamid)) && byWamid;
    },
    { timeoutMs: 30_000, what: 'every acknowledged status on the broker' },
  );
  // Each acknowledged report went out as one item: a relay's redelivery keeps its event id, and a report sent on
  // receipt is sent once per delivery (this upstream delivered each once).
  expect([...seen.values()].filter((eventIds) => eventIds.size !== 1)).toEqual([]);
}, 180_000);

it('a campaign worker stopped with SIGTERM mid-dispatch exits cleanly, and another finishes: each recipient is sent exactly once', async () => {
  const workerEnv = campaignTestEnv(stack.messagingUrl, {
    CAMPAIGN_ROLE: 'worker',
    // Small steps, so the stop lands between dispatcher passes with commands in flight.
    DISPATCH_BATCH_SIZE: '10',
    DISPATCH_MAX_IN_FLIGHT: '20',
  });
  // The tenant is made while the worker starts.
  const [t, first] = await Promise.all([
    createTenant(stack, 'TIER_10K', { throughput_per_second: 25 }),
    spawnService('campaign', 'CAMPAIGN_PORT', workerEnv),
  ]);
  const list = phones(300);
  const res = await postCampaign(stack, t, { recipients: list.map((phone) => ({ phone })) }).expect(202);
  const id = res.body.data.campaign_id as string;

  await waitFor(async () => ((await readCampaign(stack, t, id)).sent_count as number) >= 40, {
    timeoutMs: 60_000,
    what: 'campaign under way',
  });
  first.child.kill('SIGTERM');
  expect(await stopped(first)).toEqual({ exitCode: 0, closeFailures: [] });
  const atStop = await readCampaign(stack, t, id);
  expect(atStop.status).toBe('processing');
  expect(atStop.sent_count as number).toBeLessThan(300);

  const second = await spawnService('campaign', 'CAMPAIGN_PORT', workerEnv);
  const done = await waitForCampaign(stack, t, id, ['completed'], 120_000);
  expect(done).toMatchObject({ total_count: 300, sent_count: 300, failed_count: 0 });
  const recipients = await allRecipients(stack, t, id);
  expect(recipients.filter((r) => r.status !== 'sent')).toEqual([]);
  expect(new Set(recipients.map((r) => r.message_log_id)).size).toBe(300);
  const results = await sandboxResultsByPhone(stack, list);
  for (const phone of list)
    expect({ phone, results: results.get(phone) }).toEqual({ phone, results: ['accepted'] });
  // An idle worker stops cleanly too.
  second.child.kill('SIGTERM');
  expect(await stopped(second)).toEqual({ exitCode: 0, closeFailures: [] });
}, 240_000);

/** A webhook receiver that answers 200 after a short delay, so attempts are in flight when the stop comes. */
async function slowReceiver(delayMs: number): Promise<{ url: string; ids: string[]; server: Server }> {
  const ids: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['x-webhook-id']));
      setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ids, server };
}

it('the webhook dispatcher stopped with SIGTERM while delivering gives back what was in flight: every event reaches the receiver', async () => {
  // A world of its own: only the dispatchers of this test take its deliveries.
  const world: IsolatedWorld = await isolatedWorld();
  cleanups.push(() => world.drop());
  const settings: Record<string, string> = {
    ...DISPATCHER_TEST_SETTINGS,
    ...world.env,
    DISPATCHER_TIMEOUT_MS: '5000',
    DISPATCHER_MAX_RETRIES: '20',
  };
  await migrateDispatcherOnce(world.env);
  const receiver = await slowReceiver(100);
  cleanups.push(() => new Promise((resolve) => receiver.server.close(resolve)));
  const dispatcher = await spawnService('webhook-dispatcher', 'DISPATCHER_PORT', settings);

  const tenantId = newTenantId();
  await request(dispatcher.url)
    .put('/api/v1/webhooks/settings')
    .set(asTenant(tenantId))
    .send({ url: `${receiver.url}/hooks`, events: null })
    .expect(200);
  const publisher = new AmqpClient({
    url: testEnv().AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    prefix: world.env.AMQP_PREFIX,
    logger: createLogger('e2e', 'silent'),
    queueExpiresMs: Number(testEnv().AMQP_QUEUE_EXPIRES_MS),
  });
  await publisher.connect();
  cleanups.push(() => publisher.close());
  const events = Array.from({ length: 300 }, () => statusUpdated(tenantId));
  for (const event of events) {
    await publisher.publish('message.status_updated', event, { messageId: event.event_id as string });
  }

  await waitFor(() => receiver.ids.length >= 60, { timeoutMs: 60_000, what: 'deliveries under way' });
  dispatcher.child.kill('SIGTERM');
  expect(await stopped(dispatcher)).toEqual({ exitCode: 0, closeFailures: [] });
  const atStop = new Set(receiver.ids).size;
  expect(atStop).toBeLessThan(events.length);

  // Another replica (in this process) delivers the rest, the attempts given back at the stop among them.
  const replica: TestDispatcher = await startDispatcher(settings);
  cleanups.push(() => replica.stop());
  const wanted = events.map((e) => `evt_${e.event_id as string}`);
  await waitFor(
    () => {
      const got = new Set(receiver.ids);
      return wanted.every((w) => got.has(w));
    },
    { timeoutMs: 90_000, what: 'every event delivered' },
  );
  // At least once: only the attempts cut off by the stop (at most the endpoint's concurrency) may come twice.
  const duplicates = receiver.ids.length - new Set(receiver.ids).size;
  expect(duplicates).toBeLessThanOrEqual(Number(settings.DISPATCHER_ENDPOINT_CONCURRENCY));
  expect(receiver.ids.filter((id) => !wanted.includes(id))).toEqual([]);
}, 180_000);

/**
 * A slow hop between the gateway and messaging: every call waits before it is passed on, so the gateway has
 * sends in flight when it is stopped. Answers the phones of the sends it holds now.
 */
async function slowHop(
  target: string,
  delayMs: number,
): Promise<{ url: string; held: Set<string>; server: Server }> {
  const held = new Set<string>();
  const passOn = (headers: IncomingHttpHeaders): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length', 'keep-alive'].includes(name))
        out[name] = value;
    }
    return out;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let phone: string | undefined;
      if (req.url?.endsWith('/messages/send'))
        phone = (JSON.parse(body.toString()) as { phone: string }).phone;
      if (phone) held.add(phone);
      setTimeout(() => {
        fetch(`${target}${req.url}`, {
          method: req.method,
          headers: passOn(req.headers),
          body: body.length > 0 ? body : undefined,
        })
          .then(async (answer) => {
            res
              .writeHead(answer.status, {
                'content-type': answer.headers.get('content-type') ?? 'text/plain',
              })
              .end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch(() => res.destroy())
          .finally(() => phone && held.delete(phone));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, held, server };
}

it('the gateway stopped with SIGTERM while forwarding sends answers those in flight with their real answer, and refuses later ones', async () => {
  const t = await createTenant(stack, 'TIER_10K');
  const hop = await slowHop(stack.messagingUrl, 300);
  cleanups.push(() => new Promise((resolve) => hop.server.close(resolve)));
  const gateway = await spawnService('gateway', 'GATEWAY_PORT', {
    ADMIN_TOKEN,
    MESSAGING_URL: hop.url,
    DEFAULT_PLAN: 'unlimited',
  });

  const targets = phones(400);
  const accepted: AcceptedSend[] = [];
  let inFlightAtStop: string[] = [];
  const statuses = await streamAndStop(gateway, {
    count: targets.length,
    concurrency: 8,
    acceptedStatus: 202,
    stopAfter: 60,
    onStop: () => (inFlightAtStop = [...hop.held]),
    send: (i) => sendTemplate(gateway.url, t.channelAccountId, t.auth, targets[i], accepted),
  });
  expect(await stopped(gateway)).toEqual({ exitCode: 0, closeFailures: [] });
  expect(statuses.filter((s) => s !== 202 && s !== 0 && s !== 503)).toEqual([]);
  // The sends the gateway was forwarding when told to stop came back with messaging's answer.
  expect(inFlightAtStop.length).toBeGreaterThan(0);
  const acceptedPhones = new Set(accepted.map((a) => a.phone));
  expect(inFlightAtStop.filter((phone) => !acceptedPhones.has(phone))).toEqual([]);

  // Every accepted send goes out once; nothing refused went out.
  await allSent(accepted);
  const results = await sandboxResultsByPhone(stack, targets);
  for (const phone of targets) {
    const sends = results.get(phone);
    expect({ phone, sends }).toEqual({ phone, sends: acceptedPhones.has(phone) ? ['accepted'] : [] });
  }
}, 180_000);
