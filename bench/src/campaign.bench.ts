import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import {
  ADMIN_TOKEN,
  UNCAPPED_THROUGHPUT,
  BENCH_ENV,
  DATABASE_URL,
  freePort,
  migrateBenchDatabase,
  sandboxCeiling,
  type SandboxCeiling,
  startService,
  stop,
  waitHealthy,
  median,
} from './harness';
import { campaignCreateFloor, drainFloor, type FloorFigures } from './floors';

export interface CreateFigures {
  recipients: number;
  bodyBytes: number;
  parseMs: number;
  acceptMs: number;
  finalMs: number;
}

export interface DispatchFigures {
  recipients: number;
  seconds: number;
  perSecond: number;
  rejected130429: number;
}

export interface CampaignBenchResult {
  creates: CreateFigures[];
  /** Its baseline is the number's cap. */
  capped: DispatchFigures & { capPerSecond: number };
  /** Its baseline is the sandbox's ceiling for the same sends, measured right after it. */
  uncapped: DispatchFigures & { ceiling: SandboxCeiling };
  /** Same-shape floors (issue 22): the 50,000-recipient create's 202, and the minimal drain worker. */
  floors: {
    createAcceptMs: number;
    dispatch: FloorFigures & { seconds: number; failures: number; concurrency: number };
  };
}

async function call<T>(
  url: string,
  method: string,
  auth: string,
  body?: unknown,
): Promise<{ status: number; data: T }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  return { status: res.status, data: json.data };
}

function listBody(
  accountId: string,
  count: number,
  offset: number,
  extra: Record<string, unknown> = {},
): string {
  const recipients = Array.from({ length: count }, (_, i) => ({
    phone: `+1 415 ${String(offset + i).padStart(7, '0')}`,
    name: `Customer ${offset + i}`,
  }));
  return JSON.stringify({
    channel_account_id: accountId,
    message_type: 'template',
    template_name: 'hello_world',
    recipients,
    ...extra,
  });
}

/**
 * Creates and dispatches campaigns through the gateway against the sandbox: the 202 beside JSON.parse of the
 * same body, the time until total_count is final, then a capped dispatch (its baseline: the cap) and an uncapped
 * one (its baseline: the sandbox's ceiling for the same sends, measured right after it).
 */
export async function benchCampaign(): Promise<CampaignBenchResult> {
  const common = BENCH_ENV;
  await migrateBenchDatabase();
  const [sandboxPort, messagingPort, campaignPort, gatewayPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const messagingUrl = `http://127.0.0.1:${messagingPort}`;
  const messagingEnv = { ...common, UPSTREAM_BASE_URL: sandboxUrl };
  const children: ChildProcess[] = [
    startService('services/upstream-sandbox/dist/start.js', {
      ...common,
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DEFAULT_MPS: '0',
      SANDBOX_STATUS_DELAYS_MS: '',
      SANDBOX_FAULT_PATTERNS: 'false',
    }),
    startService('services/messaging/dist/start.js', {
      ...messagingEnv,
      MESSAGING_PORT: String(messagingPort),
    }),
    startService('services/campaign/dist/start.js', {
      ...common,
      CAMPAIGN_PORT: String(campaignPort),
      MESSAGING_URL: messagingUrl,
    }),
    startService('services/gateway/dist/start.js', {
      ...common,
      GATEWAY_PORT: String(gatewayPort),
      MESSAGING_URL: messagingUrl,
      CAMPAIGN_URL: `http://127.0.0.1:${campaignPort}`,
    }),
  ];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    await waitHealthy(`${sandboxUrl}/health`);
    await waitHealthy(`${messagingUrl}/health/ready`);
    await waitHealthy(`http://127.0.0.1:${campaignPort}/health/ready`);
    await waitHealthy(`${gatewayUrl}/api/health`);
    const admin = <T>(method: string, path: string, body?: unknown) =>
      call<T>(`${gatewayUrl}${path}`, method, ADMIN_TOKEN, body).then((r) => r.data);
    const tenant = await admin<{ tenant_id: number }>('POST', '/admin/v1/tenants', {
      name: 'bench',
      plan: 'unlimited',
    });
    const { api_key: key } = await admin<{ api_key: string }>(
      'POST',
      `/admin/v1/tenants/${tenant.tenant_id}/api-keys`,
    );
    const account = async (throughput: number) => {
      const suffix = `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-10);
      return (
        await admin<{ channel_account_id: string }>(
          'POST',
          `/admin/v1/tenants/${tenant.tenant_id}/channel-accounts`,
          {
            phone_number_id: `7${suffix}`,
            waba_id: `6${suffix}`,
            display_phone_number: '15550008888',
            access_token: 'bench-token',
            tier: 'TIER_UNLIMITED',
            throughput_per_second: throughput,
          },
        )
      ).channel_account_id;
    };
    const api = <T>(method: string, path: string, body?: unknown) =>
      call<T>(`${gatewayUrl}${path}`, method, key, body);

    // 1. Create: 202 latency and time to a final total_count (scheduled far ahead, then cancelled).
    const createAccount = await account(1000);
    const creates: CreateFigures[] = [];
    for (const size of [1_000, 50_000]) {
      const runs: Array<Omit<CreateFigures, 'recipients' | 'bodyBytes'>> = [];
      for (let run = 0; run < 5; run += 1) {
        const body = listBody(createAccount, size, run * size, { scheduled_at: '2099-01-01T00:00:00Z' });
        const parseStart = process.hrtime.bigint();
        JSON.parse(body);
        const parseMs = Number(process.hrtime.bigint() - parseStart) / 1e6;
        const started = performance.now();
        const created = await api<{ campaign_id: string }>('POST', '/api/v1/campaigns', body);
        const acceptMs = performance.now() - started;
        if (created.status !== 202) throw new Error(`create answered ${created.status}`);
        for (;;) {
          const c = await api<{ status: string }>('GET', `/api/v1/campaigns/${created.data.campaign_id}`);
          if (c.data.status !== 'preparing') break;
          await new Promise((r) => setTimeout(r, 10));
        }
        runs.push({ parseMs, acceptMs, finalMs: performance.now() - started });
        await api('POST', `/api/v1/campaigns/${created.data.campaign_id}/cancel`);
      }
      creates.push({
        recipients: size,
        bodyBytes: Buffer.byteLength(listBody(createAccount, size, 0)),
        parseMs: median(runs.map((r) => r.parseMs)),
        acceptMs: median(runs.map((r) => r.acceptMs)),
        finalMs: median(runs.map((r) => r.finalMs)),
      });
    }

    // 2. Dispatch: the achieved rate from the first to the last `sent` (recipients' sent_at), and 130429s.
    const dispatch = async (accountId: string, size: number, offset: number): Promise<DispatchFigures> => {
      const created = await api<{ campaign_id: string }>(
        'POST',
        '/api/v1/campaigns',
        listBody(accountId, size, offset),
      );
      const id = created.data.campaign_id;
      const deadline = Date.now() + 600_000;
      for (;;) {
        const c = await api<{ status: string }>('GET', `/api/v1/campaigns/${id}`);
        if (c.data.status === 'completed' || c.data.status === 'failed') break;
        if (Date.now() > deadline) throw new Error('the campaign did not finish within 600 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      const { rows } = await db.query<{ n: string; seconds: string }>(
        `SELECT count(*) AS n, EXTRACT(EPOCH FROM max(sent_at) - min(sent_at)) AS seconds
           FROM campaign.recipients WHERE campaign_id = $1 AND status = 'sent'`,
        [id],
      );
      const sent = Number(rows[0].n);
      const seconds = Number(rows[0].seconds);
      return { recipients: sent, seconds, perSecond: sent / seconds, rejected130429: 0 };
    };
    const rejectedFor = async (phoneNumberIdOf: string) =>
      (
        (await (await fetch(`${sandboxUrl}/_sandbox/sends/count?${phoneNumberIdOf}`)).json()) as {
          rejected: number;
        }
      ).rejected;

    const CAP = 80;
    await fetch(`${sandboxUrl}/_sandbox/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ default_mps: CAP }),
    });
    const cappedAccount = await account(CAP);
    const cappedNumber = await phoneNumberIdOf(db, cappedAccount);
    const capped = await dispatch(cappedAccount, 5_000, 1_000_000);
    capped.rejected130429 = await rejectedFor(`phone_number_id=${cappedNumber}`);

    await fetch(`${sandboxUrl}/_sandbox/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ default_mps: 0 }),
    });
    const uncappedAccount = await account(UNCAPPED_THROUGHPUT);
    const uncappedNumber = await phoneNumberIdOf(db, uncappedAccount);
    const uncapped = await dispatch(uncappedAccount, 50_000, 2_000_000);
    uncapped.rejected130429 = await rejectedFor(`phone_number_id=${uncappedNumber}`);
    // Its baseline: the same bodies straight to the same (uncapped) sandbox, as many, or for as long as allowed.
    const ceiling = await sandboxCeiling({
      workerEnv: messagingEnv,
      accountId: uncappedAccount,
      phoneNumberId: uncappedNumber,
      accessToken: 'bench-token',
      messages: uncapped.recipients,
    });
    // The same-shape floors: the same 50,000-recipient bodies through a bare proxy hop to an endpoint that parses
    // them and writes them in one statement; the same sends by the minimal drain worker at the same concurrency.
    const createFloor = await campaignCreateFloor(
      Array.from({ length: 5 }, (_, run) => listBody(createAccount, 50_000, 3_000_000 + run * 50_000)),
    );
    const dispatchFloor = await drainFloor({
      sandbox: { child: children[0], url: sandboxUrl },
      phoneNumberId: uncappedNumber,
      messages: uncapped.recipients,
      concurrency: ceiling.concurrency,
    });
    return {
      creates,
      capped: { ...capped, capPerSecond: CAP },
      uncapped: { ...uncapped, ceiling },
      floors: { createAcceptMs: createFloor.acceptMs, dispatch: dispatchFloor },
    };
  } finally {
    await db.end();
    await Promise.all(children.map(stop));
  }
}

async function phoneNumberIdOf(db: Client, accountId: string): Promise<string> {
  const { rows } = await db.query<{ phone_number_id: string }>(
    'SELECT phone_number_id FROM messaging.channel_accounts WHERE id = $1',
    [accountId],
  );
  return rows[0].phone_number_id;
}

export function campaignReport(r: CampaignBenchResult): string {
  const [small, large] = r.creates;
  return `## Campaigns: create, prepare, dispatch

Through the gateway, against the sandbox; a campaign service (\`CAMPAIGN_ROLE=all\`), one messaging process
(\`all\`). Medians of five creates per size (scheduled far ahead, so only the creation is measured).

| create | body | JSON.parse of the body | 202 | until total_count is final |
|---|---|---|---|---|
| ${small.recipients} recipients | ${(small.bodyBytes / 1e6).toFixed(2)} MB | ${small.parseMs.toFixed(1)} ms | ${small.acceptMs.toFixed(1)} ms | ${small.finalMs.toFixed(0)} ms |
| ${large.recipients} recipients | ${(large.bodyBytes / 1e6).toFixed(2)} MB | ${large.parseMs.toFixed(1)} ms | ${large.acceptMs.toFixed(1)} ms | ${large.finalMs.toFixed(0)} ms |

50,000-recipient 202 / JSON.parse of its body: **${(large.acceptMs / large.parseMs).toFixed(2)}x** (target <= 2x);
total_count final after **${(large.finalMs / 1000).toFixed(2)} s** (target <= 1.5 s).

| dispatch | recipients sent | first to last sent | rate | baseline | ratio | 130429 from the upstream |
|---|---|---|---|---|---|---|
| sandbox and account capped at ${r.capped.capPerSecond} msg/s | ${r.capped.recipients} | ${r.capped.seconds.toFixed(1)} s | **${r.capped.perSecond.toFixed(1)} msg/s** | the number's cap, ${r.capped.capPerSecond} msg/s | **${(r.capped.perSecond / r.capped.capPerSecond).toFixed(3)}x** (${((100 * r.capped.perSecond) / r.capped.capPerSecond).toFixed(1)}% of the cap; target >= 95%) | ${r.capped.rejected130429} (target 0) |
| sandbox uncapped (number's rate far above the path's) | ${r.uncapped.recipients} | ${r.uncapped.seconds.toFixed(1)} s | **${r.uncapped.perSecond.toFixed(0)} msg/s** (target >= 1,000) | the sandbox's ceiling for the same sends, ${r.uncapped.ceiling.perSecond.toFixed(0)} msg/s | **${(r.uncapped.perSecond / r.uncapped.ceiling.perSecond).toFixed(2)}x** | ${r.uncapped.rejected130429} |

Baselines: the capped dispatch's is the number's cap itself. The uncapped dispatch's is the sandbox's ceiling,
measured right after it in the same sandbox: one process POSTing the campaign's send bodies (rebuilt from its
message logs) straight to \`/{version}/{phone_number_id}/messages\` with messaging's HTTP client and
${r.uncapped.ceiling.concurrency} calls in flight (its \`SEND_CONCURRENCY\`): ${r.uncapped.ceiling.messages} sends in ${r.uncapped.ceiling.seconds.toFixed(1)} s, ${r.uncapped.ceiling.failures} not accepted.

Same-shape floors (issue 22), measured last in the same run: the 50,000-recipient bodies through a bare Node proxy
hop to a bare Express endpoint that parses each and writes its recipients in one statement before answering 202
(median of five): ${r.floors.createAcceptMs.toFixed(1)} ms; the campaign's sends by a minimal worker consuming them from RabbitMQ,
POSTing with a keep-alive pool, ${r.floors.dispatch.concurrency} in flight, updating each row and acking: ${Math.round(r.floors.dispatch.perSecond)} msg/s.

| ratio to the floor | measured | target |
|---|---|---|
| 50,000-recipient 202 / floor's 202 | **${(large.acceptMs / r.floors.createAcceptMs).toFixed(2)}x** (${large.acceptMs.toFixed(1)} / ${r.floors.createAcceptMs.toFixed(1)} ms) | <= 1.3x |
| uncapped dispatch msg/s / floor msg/s | **${(r.uncapped.perSecond / r.floors.dispatch.perSecond).toFixed(2)}x** | >= 0.7x |

Ratio capped dispatch / the number's cap: **${(r.capped.perSecond / r.capped.capPerSecond).toFixed(3)}x** (target >= 0.95x);
uncapped dispatch / sandbox ceiling: **${(r.uncapped.perSecond / r.uncapped.ceiling.perSecond).toFixed(2)}x**
`;
}
