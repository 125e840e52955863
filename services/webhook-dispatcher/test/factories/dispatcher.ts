import { AmqpClient, createLogger, runMigrations, startHttpServer, type RunningServer } from '@bm/platform';
import { Client } from 'pg';
import { migrateUnlessApplied, testEnv, uniqueSuffix } from '@bm/platform/testing';
import { loadDispatcherConfig } from '../../src/config';
import { createDispatcherDataSource } from '../../src/data-access/data-source';
import { createDispatcherService, type DispatcherService } from '../../src/dispatcher';

export const INTERNAL_TOKEN = 'test-internal-token-0123456789';

/**
 * The settings of every delivering dispatcher in a test run. All of them share the run's database and queue, so
 * any of them may take any delivery: they must agree on everything that shapes a delivery. Short intervals keep
 * the suite fast; the allow-list admits the literal 127.0.0.1 of the local receivers, and nothing else.
 */
export const DISPATCHER_TEST_SETTINGS: Record<string, string> = {
  DISPATCHER_ALLOW_HTTP: 'true',
  DISPATCHER_ALLOWED_HOSTS: '127.0.0.1',
  DISPATCHER_TIMEOUT_MS: '1000',
  DISPATCHER_RETRY_INTERVAL_MS: '300',
  DISPATCHER_RETRY_AFTER_MAX_MS: '2000',
  DISPATCHER_LEASE_GRACE_MS: '500',
  DISPATCHER_POLL_INTERVAL_MS: '50',
  DISPATCHER_ENDPOINT_CONCURRENCY: '4',
  DISPATCHER_SECRET_GRACE_MS: '60000',
  DISPATCHER_SERVICE_NAME: 'BusinessMessaging',
};

const migrated = new Map<string, Promise<void>>();

/** The dispatcher's migrations, once per database and test process (they are serialized anyway). */
export function migrateDispatcherOnce(overrides: Record<string, string> = {}): Promise<void> {
  const config = loadDispatcherConfig(testEnv(overrides));
  let done = migrated.get(config.DATABASE_URL);
  if (!done) {
    done = migrateUnlessApplied(createDispatcherDataSource(config), runMigrations);
    migrated.set(config.DATABASE_URL, done);
  }
  return done;
}

export interface IsolatedWorld {
  /** DATABASE_URL and AMQP_PREFIX of a world no other test file's dispatcher can see. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A database and queue prefix of its own, for tests that must know which dispatchers exist (kill one, count
 * what is in flight toward an endpoint): in the run's shared database any instance may take any delivery.
 */
export async function isolatedWorld(): Promise<IsolatedWorld> {
  const base = testEnv();
  const url = new URL(base.DATABASE_URL!);
  const name = `${url.pathname.slice(1)}_${uniqueSuffix()}`.slice(0, 63);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const run = async (sql: string) => {
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), AMQP_PREFIX: `${base.AMQP_PREFIX!}.${uniqueSuffix()}` },
    drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export interface TestDispatcher {
  service: DispatcherService;
  server: RunningServer;
  url: string;
  /** Graceful stop: in-flight attempts are given back for another instance to make now. */
  stop(): Promise<void>;
  /** Like a killed process: nothing is given back; another instance takes over when the lease expires. */
  crash(): Promise<void>;
}

/**
 * A dispatcher in this process on a free port. With `workers: false` it only serves the API, so it may differ
 * in delivery settings (e.g. no allow-list) without ever delivering another test's events.
 */
export async function startDispatcher(
  overrides: Record<string, string> = {},
  { workers = true } = {},
): Promise<TestDispatcher> {
  await migrateDispatcherOnce(overrides);
  const config = loadDispatcherConfig(
    testEnv({ ...DISPATCHER_TEST_SETTINGS, DISPATCHER_ROLE: workers ? 'all' : 'api', ...overrides }),
  );
  const service = await createDispatcherService(config);
  if (workers) await service.startWorkers();
  const server = await startHttpServer(service.app, 0, '127.0.0.1');
  let stopped: Promise<void> | undefined;
  const stopWith = (releaseLeases: boolean) => {
    stopped ??= (async () => {
      await server.close();
      await service.worker.stop({ releaseLeases });
      await service.close();
    })();
    return stopped;
  };
  return { service, server, url: server.url, stop: () => stopWith(true), crash: () => stopWith(false) };
}

/** The headers the gateway sets on a tenant's call. */
export function asTenant(tenantId: number): Record<string, string> {
  return { 'x-internal-token': INTERNAL_TOKEN, 'x-bm-tenant-id': String(tenantId) };
}

/** A tenant id no other test uses (tests run in parallel against one database). */
export function newTenantId(): number {
  return 100_000_000 + Math.floor(Math.random() * 2_000_000_000);
}

/** A publisher on the run's exchange, standing in for the services that emit domain events. */
export async function startPublisher(): Promise<AmqpClient> {
  const env = testEnv();
  const client = new AmqpClient({
    url: env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    prefix: env.AMQP_PREFIX!,
    logger: createLogger('test-publisher', 'silent'),
    queueExpiresMs: Number(env.AMQP_QUEUE_EXPIRES_MS),
  });
  await client.connect();
  return client;
}
