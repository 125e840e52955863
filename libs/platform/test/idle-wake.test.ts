import { Client } from 'pg';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import {
  AmqpClient,
  OutboxEventEntity,
  OutboxRelay,
  PeriodicTask,
  PgListener,
  WakeGate,
  commonEnvSchema,
  createDataSource,
  createLogger,
  createOutboxTable,
  createOutboxWakeTrigger,
  dropOutboxTable,
  enqueueEvent,
  loadConfig,
  outboxChannel,
  queryRows,
  runMigrations,
  withTransaction,
  type CommonConfig,
  type ConsumedMessage,
} from '@bm/platform';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';

const env = testEnv();
const config = loadConfig<CommonConfig>(commonEnvSchema, env);
const logger = createLogger('idle-wake-test', config.LOG_LEVEL);
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A schema with an outbox and its wake trigger, as the services' migrations make it. */
async function outboxSchema(): Promise<{ s: string; schema: string; ds: DataSource }> {
  const s = uniqueSuffix();
  const schema = `wake_test_${s}`;
  class CreateOutbox1700000000000 implements MigrationInterface {
    name = 'CreateOutbox1700000000000';
    up = (runner: QueryRunner) => createOutboxTable(runner, schema);
    down = (runner: QueryRunner) => dropOutboxTable(runner, schema);
  }
  class OutboxWake1700000000001 implements MigrationInterface {
    name = 'OutboxWake1700000000001';
    up = (runner: QueryRunner) => createOutboxWakeTrigger(runner, schema);
    down = () => Promise.resolve();
  }
  const ds = createDataSource({
    url: config.DATABASE_URL,
    schema,
    entities: [OutboxEventEntity],
    migrations: [CreateOutbox1700000000000, OutboxWake1700000000001],
    poolSize: 3,
  });
  await runMigrations(ds);
  cleanups.push(() => ds.destroy());
  return { s, schema, ds };
}

async function startListener(name: string): Promise<PgListener> {
  const listener = new PgListener({ url: config.DATABASE_URL, logger, applicationName: name });
  listener.start();
  await waitFor(() => listener.connected || undefined, { what: 'listener connected' });
  cleanups.push(() => listener.close());
  return listener;
}

async function connectedClient(): Promise<AmqpClient> {
  const client = new AmqpClient({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    logger,
    queueExpiresMs: Number(env.AMQP_QUEUE_EXPIRES_MS),
  });
  cleanups.push(() => client.close());
  await client.connect();
  return client;
}

async function consume(s: string): Promise<ConsumedMessage[]> {
  const received: ConsumedMessage[] = [];
  const client = await connectedClient();
  await client.consume(`wake-${s}`, [`test.${s}.#`], (m) => (received.push(m), Promise.resolve()));
  return received;
}

/** True once some session holds the gate of this channel (the worker sleeps). */
async function gateHeld(ds: DataSource, channel: string): Promise<boolean> {
  const [row] = await ds.query<{ held: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND mode = 'ExclusiveLock'
                      AND classid = x'57414b45'::int::oid AND objid = hashtext($1)::oid) AS held`,
    [channel],
  );
  return row.held;
}

function enqueue(ds: DataSource, schema: string, s: string): Promise<string> {
  return withTransaction(ds, (tx) =>
    enqueueEvent(tx, schema, { routingKey: `test.${s}.woken`, payload: {} }),
  );
}

/** Notifications of a channel, seen by a plain client of its own. */
async function watch(channel: string): Promise<string[]> {
  const seen: string[] = [];
  const client = new Client({ connectionString: config.DATABASE_URL });
  await client.connect();
  cleanups.push(() => client.end());
  client.on('notification', (n) => seen.push(n.channel));
  await client.query(`LISTEN ${channel}`);
  return seen;
}

/** A relay with its listener (named `wake-test-<s>`), once it sleeps holding its gate, and what it publishes. */
async function sleepingRelay(idlePollMs: number) {
  const { s, schema, ds } = await outboxSchema();
  const received = await consume(s);
  const listener = await startListener(`wake-test-${s}`);
  const amqp = await connectedClient();
  const relay = new OutboxRelay({ dataSource: ds, schema, amqp, logger, listener, idlePollMs });
  cleanups.push(() => relay.stop());
  relay.start();
  await waitFor(() => gateHeld(ds, outboxChannel(schema)), { what: 'relay asleep' });
  return { s, schema, ds, received };
}

describe('outbox relay woken by notification', () => {
  it('when the relay sleeps on a long safety poll, then an event committed later is published at once', async () => {
    const { s, schema, ds, received } = await sleepingRelay(60_000);

    const started = Date.now();
    const id = await enqueue(ds, schema, s);
    await waitFor(() => received.find((m) => m.messageId === id), { timeoutMs: 20_000, what: 'event published' });
    // The safety poll is a minute away: only the notification explains a publish within 20 s, however loaded the
    // machine (it takes milliseconds; how fast is no target here).
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('when no worker sleeps, then writers commit without notifying; when one does, then they notify', async () => {
    const { s, schema, ds } = await outboxSchema();
    const seen = await watch(outboxChannel(schema));
    await enqueue(ds, schema, s);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([]);

    const listener = await startListener(`wake-test-${s}`);
    const gate = new WakeGate(listener, outboxChannel(schema));
    expect(await gate.hold()).toBe(true);
    await enqueue(ds, schema, s);
    await waitFor(() => seen.length > 0 || undefined, { what: 'notification' });

    await gate.release();
    const before = seen.length;
    await enqueue(ds, schema, s);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.length).toBe(before);
  });

  it('when the listening connection is lost, then the relay reconnects and publishes what came meanwhile', async () => {
    const { s, schema, ds, received } = await sleepingRelay(60_000);
    const name = `wake-test-${s}`;

    await ds.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
      name,
    ]);
    const id = await enqueue(ds, schema, s);
    await waitFor(() => received.find((m) => m.messageId === id), {
      what: 'event published after reconnecting',
    });
    await waitFor(() => gateHeld(ds, outboxChannel(schema)), { what: 'relay asleep again' });
  });
});

describe('periodic task back-off', () => {
  it('when passes find nothing, then they slow down to the idle interval; work or wake() brings them back', async () => {
    const { s, schema, ds } = await outboxSchema();
    const passes: number[] = [];
    const task = new PeriodicTask(
      'backoff-test',
      20,
      async () => {
        passes.push(Date.now());
        const rows = await queryRows<{ n: number }>(
          ds,
          `DELETE FROM "${schema}".outbox WHERE id IN (SELECT id FROM "${schema}".outbox LIMIT 1) RETURNING 1 AS n`,
        );
        return rows.length;
      },
      logger,
      { idleIntervalMs: 400 },
    );
    cleanups.push(() => task.stop());
    task.start();
    await new Promise((r) => setTimeout(r, 1_500));
    // 20, 40, 80, 160, 320, then 400 ms apart: a handful of passes, not the 75 of a fixed 20 ms interval.
    expect(passes.length).toBeLessThanOrEqual(10);
    const idleGap = passes[passes.length - 1] - passes[passes.length - 2];
    expect(idleGap).toBeGreaterThanOrEqual(300);

    for (let i = 0; i < 5; i += 1) await enqueue(ds, schema, s);
    task.wake();
    const woken = passes.length;
    // Each pass that finds a row is followed by the next one at the base interval: six passes take about 150 ms,
    // where passes 400 ms apart would need 2 s at the least (timers never fire early); 1.5 s is the margin of a
    // loaded machine.
    await waitFor(() => passes.length >= woken + 6 || undefined, { timeoutMs: 1_500, what: 'fast passes' });
  });

  it('when work is stored for a known time, then wakeAt runs a pass then and not before', async () => {
    const passes: number[] = [];
    const task = new PeriodicTask(
      'wake-at-test',
      20,
      () => (passes.push(Date.now()), Promise.resolve(0)),
      logger,
      {
        idleIntervalMs: 60_000,
      },
    );
    cleanups.push(() => task.stop());
    task.start();
    // Passes at 0, 20, 60, 140, 300, 620, 1260 and 2540 ms: none due between 1.5 s and 1.8 s.
    await new Promise((r) => setTimeout(r, 1_500));
    const count = passes.length;
    const at = Date.now() + 300;
    task.wakeAt(new Date(at));
    await waitFor(() => passes.length > count || undefined, { what: 'pass at its time' });
    expect(passes[count]).toBeGreaterThanOrEqual(at - 5);
  });
});
