import { Pool } from 'pg';
import {
  AmqpClient,
  AppError,
  createLogger,
  createRedis,
  GroupCommit,
  isTransientFailure,
  ServiceMetrics,
  TransientError,
  type ConsumedMessage,
} from '@bm/platform';
import { freePort, startTcpProxy, uniqueSuffix, waitFor, type TcpProxy } from '@bm/platform/testing';
import { backoffDelay } from '../src/amqp/outage-gate';
import { closeAfter, config, runAmqpClient, useBrokerView } from './support/broker';

/*
 * Consumers against a dependency that goes away. The shared PostgreSQL, RabbitMQ and Redis keep running: the
 * database is reached through a TCP proxy the test cuts and restores, or its connection is ended from within
 * (pg_terminate_backend), and Redis is a closed port.
 */
const logger = createLogger('amqp-outage-test', config.LOG_LEVEL);
const db = new URL(config.DATABASE_URL);
const broker = useBrokerView();
const closeLater = closeAfter();

function newClient(metrics?: ServiceMetrics): AmqpClient {
  const client = runAmqpClient(logger, {
    retryDelayMs: 30,
    maxDeliveries: 2,
    backoffInitialMs: 40,
    backoffMaxMs: 300,
    metrics,
  });
  closeLater(() => client.close());
  return client;
}

/** A pool to the run's database through a proxy the test can cut, so the shared server keeps running. */
async function proxiedPool(): Promise<{ pool: Pool; proxy: TcpProxy }> {
  const proxy = await startTcpProxy(db.hostname, Number(db.port || 5432));
  const url = new URL(config.DATABASE_URL);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  const pool = new Pool({ connectionString: url.toString(), max: 4, connectionTimeoutMillis: 1_000 });
  pool.on('error', () => undefined);
  closeLater(
    () => proxy.close(),
    () => pool.end().catch(() => undefined),
  );
  return { pool, proxy };
}

function sample(text: string, name: string, queue: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`queue="${queue}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Rejects with whatever the callback throws: a real error from a real client. */
async function errorOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

describe('transient versus permanent failures', () => {
  it('when PostgreSQL or Redis cannot be reached, then the real client errors are transient', async () => {
    const closed = await freePort();
    const pool = new Pool({
      connectionString: `postgres://postgres@127.0.0.1:${closed}/none`,
      connectionTimeoutMillis: 500,
    });
    const refused = await errorOf(() => pool.query('SELECT 1'));
    await pool.end();
    const redis = createRedis({ url: `redis://127.0.0.1:${closed}` });
    const redisDown = await errorOf(() => redis.get('k'));
    redis.disconnect();
    const fetchRefused = await errorOf(() => fetch(`http://127.0.0.1:${closed}/`));

    expect([refused, redisDown, fetchRefused].map(isTransientFailure)).toEqual([true, true, true]);
  });

  it('when the database ends the session (57P01) or reports a SQLSTATE of "not now", then it is transient', async () => {
    const pool = new Pool({ connectionString: config.DATABASE_URL, max: 1 });
    pool.on('error', () => undefined);
    closeLater(() => pool.end().catch(() => undefined));
    const client = await pool.connect();
    client.on('error', () => undefined);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Its failure is caught from the start: the session may end before the terminate's own answer comes back, and
    // a rejection nobody handled yet fails the test on a loaded machine.
    const sleeping = errorOf(() => client.query('SELECT pg_sleep(5)'));
    const admin = new Pool({ connectionString: config.DATABASE_URL, max: 1 });
    await waitFor(
      async () =>
        (
          await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE $2', [
            rows[0].pid,
            '%pg_sleep%',
          ])
        ).rowCount === 1,
      { what: 'the sleeping query' },
    );
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    const terminated = await sleeping;
    client.release(true);
    await admin.end();

    expect((terminated as { code?: string }).code).toBe('57P01');
    expect(isTransientFailure(terminated)).toBe(true);
    const sqlstate = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });
    expect(['57P03', '40001', '40P01', '08006', '53300'].map((c) => isTransientFailure(sqlstate(c)))).toEqual(
      [true, true, true, true, true],
    );
    // TypeORM's QueryFailedError keeps the driver's error as driverError.
    expect(isTransientFailure({ name: 'QueryFailedError', driverError: sqlstate('40P01') })).toBe(true);
  });

  it('when the error is the work itself (invalid payload, a constraint, a bug), then it is permanent', () => {
    const permanent = [
      new AppError('VALIDATION_ERROR'),
      new AppError('INTERNAL_ERROR'),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'a string',
      undefined,
    ];
    expect(permanent.map(isTransientFailure)).toEqual(permanent.map(() => false));
    expect(isTransientFailure(new AppError('SERVICE_UNAVAILABLE'))).toBe(true);
    expect(isTransientFailure(new TransientError('cache away'))).toBe(true);
    expect(isTransientFailure(new Error('wrapped', { cause: { code: 'ECONNRESET' } }))).toBe(true);
  });

  it('when the backoff grows, then it doubles from the first wait with jitter and stops at the cap', () => {
    const policy = { initialMs: 100, maxMs: 1_000 };
    for (let i = 0; i < 50; i += 1) {
      expect(backoffDelay(1, policy)).toBeGreaterThanOrEqual(50);
      expect(backoffDelay(1, policy)).toBeLessThanOrEqual(100);
      expect(backoffDelay(3, policy)).toBeGreaterThanOrEqual(200);
      expect(backoffDelay(3, policy)).toBeLessThanOrEqual(400);
      expect(backoffDelay(40, policy)).toBeGreaterThanOrEqual(500);
      expect(backoffDelay(40, policy)).toBeLessThanOrEqual(1_000);
    }
  });

  it('when a group fails because its dependency is away, then every item fails with it without being applied alone', async () => {
    const applied: number[][] = [];
    let down = true;
    const group = new GroupCommit<number>(
      async (items) => {
        applied.push(items);
        await Promise.resolve();
        if (down)
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
      { name: 'test', logger, concurrency: 1 },
    );
    const first = group.submit(0);
    const rest = [1, 2, 3].map((n) => group.submit(n));
    const results = await Promise.allSettled([first, ...rest]);
    down = false;

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(applied).toEqual([[0], [1, 2, 3]]);
  });
});

describe('a consumer during an outage of its database', () => {
  it('when the database is unreachable for a while, then the consumer pauses, probes with backoff, and handles every message once it is back, none dead-lettered', async () => {
    const { pool, proxy } = await proxiedPool();
    const metrics = new ServiceMetrics(`outage-${uniqueSuffix()}`);
    const client = newClient(metrics);
    await client.connect();
    const s = uniqueSuffix();
    const queue = `outage-${s}`;
    let calls = 0;
    const done = new Map<string, ConsumedMessage>();
    await client.consume(
      queue,
      [`test.${s}.#`],
      async (message) => {
        calls += 1;
        await pool.query('SELECT 1');
        done.set(message.messageId, message);
      },
      { prefetch: 10 },
    );

    proxy.cut();
    for (let i = 0; i < 10; i += 1) await client.publish(`test.${s}.item`, { i }, { messageId: `m-${i}` });
    const main = `${config.AMQP_PREFIX}.${queue}`;
    await waitFor(async () => sample((await metrics.expose()).body, 'bm_amqp_consumer_paused', main) === 1, {
      what: 'the consumer paused',
    });
    const callsWhenPaused = calls;
    // Far longer than the whole retry budget of a permanent failure (2 attempts 30 ms apart).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const callsDuringOutage = calls - callsWhenPaused;
    proxy.restore();

    await waitFor(() => done.size === 10, { timeoutMs: 15_000, what: 'every message handled' });
    const text = (await metrics.expose()).body;
    // One probe per backoff (40 ms doubling to 300 ms) rather than ten handlers spinning.
    expect(callsDuringOutage).toBeLessThanOrEqual(12);
    expect([...done.values()].map((m) => m.attempt)).toEqual(Array(10).fill(1));
    expect(sample(text, 'bm_amqp_consumer_paused', main)).toBe(0);
    // Messages that arrive while the consumer is paused wait without a try, so the count is the probes and the
    // first failures, not one per message.
    expect(sample(text, 'bm_amqp_transient_failures_total', main)).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () => (await broker.ready(`${queue}.dlq`)) === 0 && (await broker.ready(`${queue}.retry`)) === 0,
      {
        what: 'no message parked',
      },
    );
    expect(await broker.ready(queue)).toBe(0);
  });

  it('when the database ends the handler session (pg_terminate_backend), then the message is tried again, uncounted, and acked', async () => {
    const pool = new Pool({
      connectionString: config.DATABASE_URL,
      max: 2,
      application_name: `outage-${uniqueSuffix()}`,
    });
    pool.on('error', () => undefined);
    closeLater(() => pool.end().catch(() => undefined));
    const client = newClient();
    await client.connect();
    const s = uniqueSuffix();
    const queue = `terminated-${s}`;
    const attempts: number[] = [];
    await client.consume(queue, [`test.${s}.#`], async (message) => {
      attempts.push(message.attempt);
      // The first run sleeps long enough for the test to end its session.
      await pool.query(attempts.length === 1 ? 'SELECT pg_sleep(5)' : 'SELECT 1');
    });

    await client.publish(`test.${s}.item`, {}, { messageId: `m-${s}` });
    const admin = new Pool({ connectionString: config.DATABASE_URL, max: 1 });
    closeLater(() => admin.end());
    await waitFor(
      async () =>
        ((
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE application_name = $1 AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()`,
            [pool.options.application_name],
          )
        ).rowCount ?? 0) > 0,
      { what: 'the session ended' },
    );

    await waitFor(() => attempts.length === 2, { what: 'the second run' });
    expect(attempts).toEqual([1, 1]);
    await waitFor(async () => (await broker.ready(queue)) === 0, { what: 'the message acked' });
    expect(await broker.ready(`${queue}.dlq`)).toBe(0);
  });

  it('when a poison message arrives during the outage, then it alone is dead-lettered after its attempts', async () => {
    const { pool, proxy } = await proxiedPool();
    const client = newClient();
    await client.connect();
    const s = uniqueSuffix();
    const queue = `poison-outage-${s}`;
    const handled: string[] = [];
    await client.consume(queue, [`test.${s}.#`], async (message) => {
      if (typeof (message.payload as { n?: unknown }).n !== 'number') throw new AppError('VALIDATION_ERROR');
      await pool.query('SELECT 1');
      handled.push(message.messageId);
    });

    proxy.cut();
    await client.publish(`test.${s}.item`, { n: 1 }, { messageId: `good-${s}` });
    await client.publish(`test.${s}.item`, { n: 'x' }, { messageId: `poison-${s}` });
    const dead = await waitFor(
      async () => broker.channel.get(`${config.AMQP_PREFIX}.${queue}.dlq`, { noAck: true }),
      {
        what: 'the poison message dead-lettered',
      },
    );
    expect(handled).toEqual([]);
    proxy.restore();

    await waitFor(() => handled.length === 1, { what: 'the good message handled' });
    expect(dead.properties.messageId).toBe(`poison-${s}`);
    expect(dead.properties.headers).toMatchObject({
      'x-bm-attempt': 2,
      'x-bm-error': 'The request is invalid',
    });
    expect(handled).toEqual([`good-${s}`]);
    expect(await broker.ready(`${queue}.dlq`)).toBe(0);
  });

  it('when the service stops during an outage, then it closes at once and the waiting messages are back in the queue', async () => {
    const { pool, proxy } = await proxiedPool();
    const client = newClient();
    await client.connect();
    const s = uniqueSuffix();
    const queue = `stop-outage-${s}`;
    let calls = 0;
    await client.consume(queue, [`test.${s}.#`], async () => {
      calls += 1;
      await pool.query('SELECT 1');
    });
    proxy.cut();
    for (let i = 0; i < 3; i += 1) await client.publish(`test.${s}.item`, { i }, { messageId: `m-${i}` });
    await waitFor(() => calls >= 3, { what: 'every message tried' });

    const started = Date.now();
    await client.close();

    // At once: the deliveries waiting out the outage are let go, not awaited (the outage never ends here, so
    // waiting would last until the test's timeout); at most a handler in flight finishes, its pg connect giving
    // up after 1 s. 10 s tells the two apart however loaded the machine, and is no speed target.
    expect(Date.now() - started).toBeLessThan(10_000);
    await waitFor(async () => (await broker.ready(queue)) === 3, { what: 'the messages requeued' });
    expect(await broker.ready(`${queue}.dlq`)).toBe(0);
  });
});
