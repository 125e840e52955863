import { Router } from 'express';
import request from 'supertest';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import {
  AppError,
  createDataSource,
  createHttpApp,
  createLogger,
  createOutboxTable,
  defineRoutes,
  dropOutboxTable,
  enqueueEvent,
  OutboxEventEntity,
  OutboxRelay,
  runMigrations,
  ServiceMetrics,
  startHttpServer,
  withTransaction,
  type AmqpClient,
  type RunningServer,
} from '@bm/platform';
import { uniqueSuffix, waitFor } from '@bm/platform/testing';
import { closeAfter, config, runAmqpClient } from './support/broker';

const logger = createLogger('metrics-test', config.LOG_LEVEL);

/** The value of one series in a Prometheus text exposition, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const has = Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`));
    if (has) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function scrape(url: string): Promise<string> {
  const res = await request(url).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

describe('GET /metrics and the HTTP metrics of createHttpApp', () => {
  let server: RunningServer;
  const metrics = new ServiceMetrics(`svc-${uniqueSuffix()}`);

  beforeAll(async () => {
    const app = createHttpApp({
      logger,
      metrics,
      routes: (a) => {
        defineRoutes(a.router, [
          { method: 'GET', path: '/items/:id', handlers: [(req, res) => res.json({ id: req.params.id })] },
        ]);
        // A router mounted under a prefix whose route fails: the error handler runs outside the router.
        const admin = Router();
        defineRoutes(admin, [
          {
            method: 'GET',
            path: '/conflict/:id',
            handlers: [
              () => {
                throw new AppError('CAMPAIGN_NOT_CANCELLABLE');
              },
            ],
          },
        ]);
        a.use('/admin/v1', admin);
      },
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('when requests were answered, then /metrics counts them by method, route template and status', async () => {
    await request(server.url).get('/items/1').expect(200);
    await request(server.url).get('/items/2').expect(200);
    await request(server.url).get('/admin/v1/conflict/9').expect(409);
    await request(server.url).get(`/nowhere/${uniqueSuffix()}`).expect(404);
    await request(server.url).delete('/items/3').expect(405);

    const text = await scrape(server.url);
    const count = (method: string, route: string, status: string) =>
      sample(text, 'bm_http_requests_total', { method, route, status });
    expect(count('GET', '/items/:id', '200')).toBe(2);
    expect(count('GET', '/admin/v1/conflict/:id', '409')).toBe(1);
    expect(count('GET', 'unmatched', '404')).toBe(1);
    expect(count('DELETE', '/items/:id', '405')).toBe(1);
    // Never the raw URL: the ids asked for do not appear as labels.
    expect(text).not.toMatch(/route="\/items\/1"/);
    expect(
      sample(text, 'bm_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/items/:id',
        status: '200',
      }),
    ).toBe(2);
    expect(sample(text, 'bm_http_request_duration_seconds_bucket', { route: '/items/:id', le: '+Inf' })).toBe(
      2,
    );
  });

  it('when scraped, then default Node metrics carry the service label', async () => {
    const text = await scrape(server.url);
    expect(sample(text, 'process_cpu_user_seconds_total', { service: metrics.service })).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });
});

describe('consumer and outbox metrics', () => {
  const closeLater = closeAfter(afterAll);

  function newClient(metrics: ServiceMetrics): AmqpClient {
    const client = runAmqpClient(logger, { retryDelayMs: 30, maxDeliveries: 2, metrics });
    closeLater(() => client.close());
    return client;
  }

  it('when a consumer acks one message and dead-letters another, then both outcomes, handler time and queue depths are reported', async () => {
    const metrics = new ServiceMetrics(`svc-${uniqueSuffix()}`);
    const client = newClient(metrics);
    await client.connect();
    const queue = `metrics.${uniqueSuffix()}`;
    const key = `metrics.test.${uniqueSuffix()}`;
    const handled: string[] = [];
    await client.consume(queue, [key], async (m) => {
      handled.push(m.messageId);
      await Promise.resolve();
      if ((m.payload as { fail?: boolean }).fail) throw new Error('refused');
    });
    await client.publish(key, { fail: false }, { messageId: 'ok-1' });
    await client.publish(key, { fail: true }, { messageId: 'bad-1' });
    const main = `${config.AMQP_PREFIX}.${queue}`;
    const text = await waitFor(
      async () => {
        const t = (await metrics.expose()).body;
        const dead = sample(t, 'bm_amqp_messages_consumed_total', { queue: main, outcome: 'dead_letter' });
        return dead === 1 ? t : undefined;
      },
      { what: 'the dead-lettered delivery to be counted' },
    );
    expect(sample(text, 'bm_amqp_messages_consumed_total', { queue: main, outcome: 'ack' })).toBe(1);
    expect(sample(text, 'bm_amqp_messages_consumed_total', { queue: main, outcome: 'retry' })).toBe(1);
    expect(sample(text, 'bm_amqp_handler_duration_seconds_count', { queue: main })).toBe(3);
    expect(sample(text, 'bm_amqp_queue_messages', { queue: main })).toBe(0);
    expect(sample(text, 'bm_amqp_queue_messages', { queue: `${main}.dlq` })).toBe(1);
    expect(sample(text, 'bm_amqp_dead_letter_messages', { queue: `${main}.dlq` })).toBe(1);
    expect(sample(text, 'bm_amqp_dead_letter_messages', { queue: main })).toBeUndefined();
  });

  it('when events are committed while the relay cannot publish, then bm_outbox_backlog shows them until they are relayed', async () => {
    const schema = `metrics_${uniqueSuffix()}`;
    const ds: DataSource = createDataSource({
      url: config.DATABASE_URL,
      schema,
      entities: [OutboxEventEntity],
      migrations: [
        class CreateOutbox1700000000000 implements MigrationInterface {
          name = 'CreateOutbox1700000000000';
          up = (runner: QueryRunner) => createOutboxTable(runner, schema);
          down = (runner: QueryRunner) => dropOutboxTable(runner, schema);
        },
      ],
      poolSize: 2,
    });
    await runMigrations(ds);
    closeLater(async () => {
      await ds.query(`DROP SCHEMA "${schema}" CASCADE`);
      await ds.destroy();
    });
    const metrics = new ServiceMetrics(`svc-${uniqueSuffix()}`);
    const client = newClient(metrics); // not connected yet: the relay holds the rows
    const relay = new OutboxRelay({ dataSource: ds, schema, amqp: client, logger, metrics, intervalMs: 20 });
    closeLater(() => relay.stop());
    for (let i = 0; i < 3; i += 1) {
      await withTransaction(ds, (tx) =>
        enqueueEvent(tx, schema, { routingKey: 'metrics.backlog', payload: { i } }),
      );
    }
    relay.start();
    const backlog = async () =>
      sample((await metrics.expose()).body, 'bm_outbox_backlog', { schema }) ?? Number.NaN;
    expect(await backlog()).toBe(3);
    await client.connect();
    await waitFor(async () => (await backlog()) === 0, { what: 'the backlog to drain' });
    await relay.stop();
    expect((await metrics.expose()).body).not.toContain(`schema="${schema}"`);
  });
});
