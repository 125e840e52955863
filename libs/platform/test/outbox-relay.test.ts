import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import {
  OutboxEventEntity,
  OutboxRelay,
  createDataSource,
  createLogger,
  createOutboxTable,
  dropOutboxTable,
  enqueueEvent,
  runMigrations,
  withTransaction,
  type AmqpClient,
  type ConsumedMessage,
  type OutboxRelayOptions,
} from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { closeAfter, config, runAmqpClient } from './support/broker';

const logger = createLogger('outbox-test', config.LOG_LEVEL);
// Relays and clients first (registered last), data sources after.
const closeLater = closeAfter();

/** A service's first migration, as services write it. */
function firstMigration(schema: string) {
  return class CreateOutbox1700000000000 implements MigrationInterface {
    name = 'CreateOutbox1700000000000';
    up = (runner: QueryRunner) => createOutboxTable(runner, schema);
    down = (runner: QueryRunner) => dropOutboxTable(runner, schema);
  };
}

/** A data source of one "process"; `migrate` runs the migrations as the service's migrate command would. */
async function openDatabase(schema: string, migrate = false): Promise<DataSource> {
  const ds = createDataSource({
    url: config.DATABASE_URL,
    schema,
    entities: [OutboxEventEntity],
    migrations: [firstMigration(schema)],
    poolSize: 3,
  });
  if (migrate) await runMigrations(ds);
  else await ds.initialize();
  closeLater(() => (ds.isInitialized ? ds.destroy() : Promise.resolve()));
  return ds;
}

function newClient(): AmqpClient {
  const client = runAmqpClient(logger);
  closeLater(() => client.close());
  return client;
}

async function connectedClient(): Promise<AmqpClient> {
  const client = newClient();
  await client.connect();
  return client;
}

/** A consumer on its own client, bound to every routing key of this test. */
async function listen(s: string): Promise<ConsumedMessage[]> {
  const received: ConsumedMessage[] = [];
  const client = await connectedClient();
  await client.consume(
    `outbox-${s}`,
    [`test.${s}.#`],
    (message) => (received.push(message), Promise.resolve()),
  );
  return received;
}

function newRelay(options: Omit<OutboxRelayOptions, 'logger'>): OutboxRelay {
  const relay = new OutboxRelay({ logger, intervalMs: 20, ...options });
  closeLater(() => relay.stop());
  return relay;
}

describe('transactional outbox', () => {
  it('when the transaction commits and the process dies before relaying, then a new relay publishes it', async () => {
    const s = uniqueSuffix();
    const schema = `outbox_test_${s}`;
    const first = await openDatabase(schema, true);
    const messageId = await withTransaction(first, (tx) =>
      enqueueEvent(tx, schema, {
        routingKey: `test.${s}.order.paid`,
        payload: { total: 12 },
        headers: { tp: 'x' },
      }),
    );
    await first.destroy();
    const received = await listen(s);

    const relay = newRelay({ dataSource: await openDatabase(schema), schema, amqp: await connectedClient() });
    relay.start();

    await waitFor(() => received.length > 0, { what: 'relayed event' });
    expect(received).toEqual([
      {
        messageId,
        routingKey: `test.${s}.order.paid`,
        payload: { total: 12 },
        headers: { tp: 'x' },
        attempt: 1,
        redelivered: false,
      },
    ]);
    await waitFor(async () => (await relay.backlog()) === 0, { what: 'empty backlog' });
  });

  it('when the transaction rolls back, then its event is never published', async () => {
    const s = uniqueSuffix();
    const schema = `outbox_test_${s}`;
    const ds = await openDatabase(schema, true);
    const received = await listen(s);
    const failing = withTransaction(ds, async (tx) => {
      await enqueueEvent(tx, schema, { routingKey: `test.${s}.rolled-back`, payload: {} });
      throw new Error('use case failed');
    });
    await expect(failing).rejects.toThrow('use case failed');
    const marker = await withTransaction(ds, (tx) =>
      enqueueEvent(tx, schema, { routingKey: `test.${s}.committed`, payload: {} }),
    );

    newRelay({ dataSource: ds, schema, amqp: await connectedClient() }).start();

    // The later, committed marker arriving shows the relay has passed the place where the rolled-back row would be.
    await waitFor(() => received.some((m) => m.messageId === marker), { what: 'marker' });
    expect(received.map((m) => m.routingKey)).toEqual([`test.${s}.committed`]);
    expect(await ds.getRepository(OutboxEventEntity).count()).toBe(1);
  });

  it('when two relays run at once, then every row is published exactly once', async () => {
    const s = uniqueSuffix();
    const schema = `outbox_test_${s}`;
    const ds = await openDatabase(schema, true);
    const received = await listen(s);
    const ids = await withTransaction(ds, async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 40; i += 1)
        out.push(await enqueueEvent(tx, schema, { routingKey: `test.${s}.n`, payload: { i } }));
      return out;
    });
    const publisher = await connectedClient();
    const replicas = [
      newRelay({ dataSource: await openDatabase(schema), schema, amqp: publisher, batchSize: 5 }),
      newRelay({
        dataSource: await openDatabase(schema),
        schema,
        amqp: await connectedClient(),
        batchSize: 5,
      }),
    ];

    for (const relay of replicas) relay.start();
    await waitFor(async () => (await replicas[0].backlog()) === 0, { what: 'empty backlog' });
    await Promise.all(replicas.map((r) => r.stop()));

    // Everything the relays published was confirmed before this sentinel, so it arrives after all of it.
    await publisher.publish(`test.${s}.sentinel`, {}, { messageId: `sentinel-${s}` });
    await waitFor(() => received.some((m) => m.messageId === `sentinel-${s}`), { what: 'sentinel' });
    const relayed = received.filter((m) => m.messageId !== `sentinel-${s}`).map((m) => m.messageId);
    expect([...relayed].sort()).toEqual([...ids].sort());
    const rows = await ds.getRepository(OutboxEventEntity).find();
    expect(rows.every((r) => r.publishedAt !== null && r.attempts === 1)).toBe(true);
  });

  it('when the client is not connected, then rows wait and are published once it is', async () => {
    const s = uniqueSuffix();
    const schema = `outbox_test_${s}`;
    const ds = await openDatabase(schema, true);
    await withTransaction(ds, (tx) =>
      enqueueEvent(tx, schema, { routingKey: `test.${s}.later`, payload: {} }),
    );
    const client = newClient();
    const relay = newRelay({ dataSource: ds, schema, amqp: client });

    expect(await relay.relayOnce()).toBe(0);
    expect(await relay.backlog()).toBe(1);

    await client.connect();
    expect(await relay.relayOnce()).toBe(1);
    expect(await relay.backlog()).toBe(0);
  });

  it('when published rows are older than the retention, then cleanup deletes only those', async () => {
    const s = uniqueSuffix();
    const schema = `outbox_test_${s}`;
    const ds = await openDatabase(schema, true);
    const [old, recent] = await withTransaction(ds, async (tx) => [
      await enqueueEvent(tx, schema, { routingKey: `test.${s}.a`, payload: {} }),
      await enqueueEvent(tx, schema, { routingKey: `test.${s}.b`, payload: {} }),
    ]);
    const relay = newRelay({ dataSource: ds, schema, amqp: await connectedClient(), retentionHours: 24 });
    expect(await relay.relayOnce()).toBe(2);
    const repo = ds.getRepository(OutboxEventEntity);
    await repo.update({ messageId: old }, { publishedAt: new Date(Date.now() - 25 * 3_600_000) });

    expect(await relay.cleanup()).toEqual({ deleted: 1, more: false });

    expect((await repo.find()).map((r) => r.messageId)).toEqual([recent]);
  });

  it('when more rows expired than one statement deletes, then cleanup deletes them all in batches', async () => {
    const s = uniqueSuffix();
    const schema = `outbox_test_${s}`;
    const ds = await openDatabase(schema, true);
    await withTransaction(ds, async (tx) => {
      for (let i = 0; i < 5; i += 1)
        await enqueueEvent(tx, schema, { routingKey: `test.${s}.${i}`, payload: {} });
    });
    const relay = newRelay({
      dataSource: ds,
      schema,
      amqp: await connectedClient(),
      retentionHours: 24,
      cleanupBatchSize: 2,
    });
    expect(await relay.relayOnce()).toBe(5);
    await ds.query(`UPDATE "${schema}".outbox SET published_at = now() - interval '25 hours'`);

    // Out of time after the first batch: it says more may remain.
    expect(await relay.cleanup(0)).toEqual({ deleted: 2, more: true });
    expect(await relay.cleanup()).toEqual({ deleted: 3, more: false });

    expect(await ds.query(`SELECT count(*)::int AS n FROM "${schema}".outbox`)).toEqual([{ n: 0 }]);
  });

  it('when enqueueEvent is called outside a transaction, then it refuses', async () => {
    const s = uniqueSuffix();
    const schema = `outbox_test_${s}`;
    const ds = await openDatabase(schema, true);

    await expect(enqueueEvent(ds.manager, schema, { routingKey: 'x', payload: {} })).rejects.toThrow(
      'transaction',
    );
  });
});
