import { createServer, type AddressInfo } from 'node:net';
import request from 'supertest';
import { AmqpClient, createLogger, runMigrations, startHttpServer, type RunningServer } from '@bm/platform';
import { migrateUnlessApplied, testEnv, uniqueSuffix } from '@bm/platform/testing';
import { createCampaignService, type CampaignService } from '../../services/campaign/src/campaign';
import { loadCampaignConfig } from '../../services/campaign/src/config';
import { createCampaignDataSource } from '../../services/campaign/src/data-access/data-source';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { createGatewayDataSource } from '../../services/gateway/src/data-access/data-source';
import { createGateway, type Gateway } from '../../services/gateway/src/gateway';
import { loadMessagingConfig } from '../../services/messaging/src/config';
import { createMessagingDataSource } from '../../services/messaging/src/data-access/data-source';
import { createMessagingService, type MessagingService } from '../../services/messaging/src/messaging';
import { createSandboxApp, type SandboxApp } from '../../services/upstream-sandbox/src/app';
import { loadSandboxConfig } from '../../services/upstream-sandbox/src/config';
import { checkAnswersAgainstOpenApi } from './openapi-check';
import { SANDBOX_FAULT_SUFFIXES } from './sandbox-suffixes';
import { registerSecret } from './secrets';

export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

let migrations: Promise<void> | undefined;

/**
 * A port held (the OS's choice) for a server that must be named before it starts: no other server, of this process
 * or another, can take it until `release`, called just before that server listens on it.
 */
async function holdPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Every service's migrations, once per run: a file after the first finds them applied and skips them. */
export function migrateAll(): Promise<void> {
  migrations ??= (async () => {
    for (const ds of [
      createGatewayDataSource(loadGatewayConfig(testEnv())),
      createMessagingDataSource(loadMessagingConfig(testEnv())),
      createCampaignDataSource(loadCampaignConfig(testEnv())),
    ]) {
      await migrateUnlessApplied(ds, runMigrations);
    }
  })();
  return migrations;
}

export interface Stack {
  gatewayUrl: string;
  sandboxUrl: string;
  /** The first messaging replica, for its internal endpoints. */
  messagingUrl: string;
  sandbox: SandboxApp;
  messaging: MessagingService[];
  /** The campaign service the gateway forwards to (absent unless asked for). */
  campaign?: CampaignService;
  /** The campaign service's URL, when it was started. */
  campaignUrl?: string;
  gateway: Gateway;
  /** A publisher on the run's exchange, standing in for webhook-ingress. */
  broker: AmqpClient;
  stop(): Promise<void>;
}

export interface StackOptions {
  messagingReplicas?: number;
  messagingEnv?: Record<string, string>;
  /** Settings of one replica only, e.g. its own broker URL through a proxy. */
  replicaEnv?: (replica: number) => Record<string, string>;
  sandboxEnv?: Record<string, string>;
  /** Start the campaign service too, with these settings (e.g. CAMPAIGN_ROLE=api to run its worker elsewhere). */
  campaignEnv?: Record<string, string>;
}

/** Settings of a campaign service in tests: quick passes, the run's messaging. */
export function campaignTestEnv(
  messagingUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return testEnv({
    MESSAGING_URL: messagingUrl,
    DISPATCH_INTERVAL_MS: '50',
    THROTTLE_RECHECK_MS: '200',
    PREPARE_SWEEP_INTERVAL_MS: '200',
    COST_REFRESH_MS: '200',
    ...extra,
  }) as Record<string, string>;
}

/** Sandbox, messaging (one or more replicas) and the gateway in this process, on free ports. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  registerSecret('admin token', ADMIN_TOKEN);
  registerSecret('internal token', testEnv().INTERNAL_TOKEN);
  await migrateAll();
  const servers: RunningServer[] = [];
  const sandbox = createSandboxApp(
    loadSandboxConfig({
      LOG_LEVEL: 'error',
      SANDBOX_STATUS_DELAYS_MS: '',
      SANDBOX_DEFAULT_MPS: '0',
      ...options.sandboxEnv,
    }),
    createLogger('sandbox', 'silent'),
  );
  const sandboxServer = await startHttpServer(sandbox.app, 0, '127.0.0.1');
  servers.push(sandboxServer);
  // Messaging asks the gateway about dashboard users (a conversation's assignee): the gateway's port is chosen first.
  const gatewayPort = await holdPort();
  const messaging: MessagingService[] = [];
  const messagingServers: RunningServer[] = [];
  for (let i = 0; i < (options.messagingReplicas ?? 1); i += 1) {
    const config = loadMessagingConfig(
      testEnv({
        UPSTREAM_BASE_URL: sandboxServer.url,
        SCHEDULER_INTERVAL_MS: '100',
        SEND_RETRY_BASE_MS: '100',
        GATEWAY_URL: `http://127.0.0.1:${gatewayPort.port}`,
        ...options.messagingEnv,
        ...options.replicaEnv?.(i),
      }),
    );
    registerSecret('encryption key of messaging', config.ENCRYPTION_KEY);
    const service = await createMessagingService(config);
    await service.startWorkers();
    messaging.push(service);
    messagingServers.push(await startHttpServer(service.app, 0, '127.0.0.1'));
  }
  let campaign: CampaignService | undefined;
  let campaignServer: RunningServer | undefined;
  if (options.campaignEnv) {
    const config = loadCampaignConfig(campaignTestEnv(messagingServers[0].url, options.campaignEnv));
    campaign = await createCampaignService(config);
    if (config.CAMPAIGN_ROLE !== 'api') await campaign.startWorkers();
    campaignServer = await startHttpServer(campaign.app, 0, '127.0.0.1');
  }
  const gateway = await createGateway(
    loadGatewayConfig(
      testEnv({
        ADMIN_TOKEN,
        MESSAGING_URL: messagingServers[0].url,
        ...(campaignServer ? { CAMPAIGN_URL: campaignServer.url } : {}),
        DEFAULT_PLAN: 'unlimited',
      }),
    ),
  );
  // Its consumer keeps the inbox's events for the browsers' streams.
  await gateway.startWorkers();
  await gatewayPort.release();
  const gatewayServer = await startHttpServer(gateway.app, gatewayPort.port, '127.0.0.1');
  checkAnswersAgainstOpenApi(gatewayServer);
  const env = testEnv();
  const broker = new AmqpClient({
    url: 'amqp://guest:guest@127.0.0.1:5672',
    prefix: env.AMQP_PREFIX!,
    logger: createLogger('e2e', 'silent'),
    queueExpiresMs: Number(env.AMQP_QUEUE_EXPIRES_MS),
  });
  await broker.connect();
  return {
    gatewayUrl: gatewayServer.url,
    sandboxUrl: sandboxServer.url,
    messagingUrl: messagingServers[0].url,
    sandbox,
    messaging,
    campaign,
    campaignUrl: campaignServer?.url,
    gateway,
    broker,
    stop: async () => {
      // Open event streams would hold the HTTP close.
      await gateway.inboxHub.close();
      await gatewayServer.close();
      await gateway.close();
      await campaignServer?.close();
      await campaign?.close();
      for (const s of messagingServers) await s.close();
      for (const m of messaging) await m.close();
      await broker.close();
      await sandboxServer.close();
      await sandbox.close();
    },
  };
}

export interface TenantFixture {
  tenantId: number;
  apiKey: string;
  channelAccountId: string;
  phoneNumberId: string;
  wabaId: string;
  auth: { Authorization: string };
}

/** A tenant with a key and a channel account connected through the operator API (templates from the sandbox). */
export async function createTenant(
  stack: Stack,
  tier = 'TIER_1K',
  extra: Record<string, unknown> = {},
): Promise<TenantFixture> {
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  const channel = { access_token: 'sandbox-token', tier, ...extra };
  if (typeof channel.access_token === 'string') registerSecret('channel access token', channel.access_token);
  const tenant = await request(stack.gatewayUrl)
    .post('/admin/v1/tenants')
    .set(admin)
    .send({ name: `t-${uniqueSuffix()}` })
    .expect(201);
  const tenantId = tenant.body.data.tenant_id as number;
  const digits = () =>
    String(Date.now()).slice(-8) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
  const phoneNumberId = `1${digits()}`;
  const wabaId = `2${digits()}`;
  // The key and the account need only the tenant: asked for together.
  const [key, account] = await Promise.all([
    request(stack.gatewayUrl).post(`/admin/v1/tenants/${tenantId}/api-keys`).set(admin).expect(201),
    request(stack.gatewayUrl)
      .post(`/admin/v1/tenants/${tenantId}/channel-accounts`)
      .set(admin)
      .send({
        phone_number_id: phoneNumberId,
        waba_id: wabaId,
        display_phone_number: '+1 555 000 1111',
        ...channel,
      }),
  ]);
  if (account.status !== 201)
    throw new Error(`channel account: ${account.status} ${JSON.stringify(account.body)}`);
  const apiKey = key.body.data.api_key as string;
  registerSecret(`API key of tenant ${tenantId}`, apiKey);
  return {
    tenantId,
    apiKey,
    channelAccountId: account.body.data.channel_account_id as string,
    phoneNumberId,
    wabaId,
    auth: { Authorization: `Bearer ${apiKey}` },
  };
}

const issuedPhones = new Set<string>();

/** A random valid phone number (US), avoiding the sandbox's fault suffixes unless one is asked for. */
export function randomPhone(suffix = ''): string {
  const body = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const base = `1415${body}`;
  const phone = suffix
    ? base.slice(0, base.length - suffix.length) + suffix
    : SANDBOX_FAULT_SUFFIXES.test(base)
      ? undefined
      : base;
  // Never the same phone twice in a test file: its sandbox counts sends per phone across the file's tests (two
  // lists of 300 drawn from 10^7 numbers share one about once in a hundred runs).
  if (phone === undefined || issuedPhones.has(phone)) return randomPhone(suffix);
  issuedPhones.add(phone);
  return phone;
}
