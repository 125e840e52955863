import { createHash } from 'node:crypto';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { INTERNAL_HEADERS, type InboundEventDetailDto } from '@bm/contracts';
import { AmqpClient, createLogger, startHttpServer } from '@bm/platform';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { itemsOf } from '../../../../test/support/events';
import { checkAnswersAgainstOpenApi } from '../../../../test/support/openapi-check';
import { useFixture } from '../../../../test/support/use-fixture';
import { loadIngressConfig } from '../../src/config';
import { createIngressDataSource } from '../../src/data-access/data-source';
import { createIngressService, type IngressService } from '../../src/ingress';
import { startFakeMessaging, type FakeMessaging } from './fake-messaging';
import { createScratchDatabase } from './scratch-database';
import { APP_SECRET, PREVIOUS_APP_SECRET, inboundTextBody, sign, upstreamId } from './webhooks';

export interface Published {
  routingKey: string;
  messageId: string;
  payload: Record<string, unknown>;
}

export interface RunningIngress {
  url: string;
  service: IngressService;
  stop(): Promise<void>;
}

export const ADMIN = { [INTERNAL_HEADERS.token]: testEnv().INTERNAL_TOKEN! };

/**
 * webhook-ingress in this process on a free port, with its own database and exchange, a fake of messaging's
 * account lookup, and a consumer collecting every item it publishes. Without workers the instance only stores.
 */
export async function setupIngress({ workers = true } = {}) {
  const database = await createScratchDatabase();
  const messaging: FakeMessaging = await startFakeMessaging();
  const base = testEnv({
    DATABASE_URL: database.url,
    AMQP_PREFIX: `${testEnv().AMQP_PREFIX}.ing${uniqueSuffix()}`,
    MESSAGING_URL: messaging.url,
    // No campaign service here: customers' stops go by the broker only.
    CAMPAIGN_URL: '',
    INGRESS_APP_SECRET: APP_SECRET,
    INGRESS_APP_SECRET_PREVIOUS: PREVIOUS_APP_SECRET,
    INGRESS_PROCESS_INTERVAL_MS: '20',
  });
  const config = loadIngressConfig(base);
  const published: Published[] = [];
  const collector = new AmqpClient({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    logger: createLogger('collector', 'silent'),
    queueExpiresMs: config.AMQP_QUEUE_EXPIRES_MS,
  });
  await collector.connect();
  await collector.consume(`collect.${uniqueSuffix()}`, ['inbound.#'], async (m) => {
    // A batch of status items is seen as the items it holds, each under its own event id.
    for (const item of itemsOf(m.routingKey, m.payload as Published['payload']))
      published.push({
        routingKey: item.routingKey,
        messageId: item.routingKey === m.routingKey ? m.messageId : String(item.payload.event_id),
        payload: item.payload,
      });
    await Promise.resolve();
  });
  const db: DataSource = createIngressDataSource(config);
  await db.initialize();
  const running = new Set<RunningIngress>();

  /** Another instance on the same database and exchange; without workers it only stores. */
  const start = async (overrides: Record<string, string> = {}, { workers = true } = {}) => {
    const service = await createIngressService(loadIngressConfig({ ...base, ...overrides }));
    if (workers) await service.startWorkers();
    const server = await startHttpServer(service.app, 0, '127.0.0.1');
    // The Ingress routes the upstream's calls here directly: those answers are the API's; the rest is internal.
    checkAnswersAgainstOpenApi(server, { paths: ['/api/webhooks/channel'] });
    const instance: RunningIngress = {
      url: server.url,
      service,
      stop: async () => {
        running.delete(instance);
        await server.close();
        await service.close();
      },
    };
    running.add(instance);
    return instance;
  };
  const main = await start({}, { workers });
  const marker = upstreamId();
  messaging.register(marker);

  const post = (
    raw: string | Buffer,
    { signature = sign(raw), url = main.url }: { signature?: string | null; url?: string } = {},
  ) => {
    const req = request(url).post('/api/webhooks/channel').set('Content-Type', 'application/json');
    return (signature === null ? req : req.set('X-Hub-Signature-256', signature)).send(raw);
  };
  const postJson = (body: unknown, options?: Parameters<typeof post>[1]) =>
    post(JSON.stringify(body), options);
  const publishedWith = (field: string, value: unknown) =>
    published.filter((p) => p.payload[field] === value);
  const eventOf = async (id: string, url = main.url) =>
    (await request(url).get(`/admin/v1/inbound-events/${id}`).set(ADMIN).expect(200)).body
      .data as InboundEventDetailDto;
  const countRows = async (sql: string, params: unknown[] = []) =>
    Number((await db.query<Array<{ n: string }>>(sql, params))[0].n);

  return {
    url: main.url,
    databaseUrl: database.url,
    messaging,
    published,
    /** A client on the run's exchange, standing in for the services that publish to ingress. */
    broker: collector,
    db,
    start,
    post,
    postJson,
    publishedWith,
    countRows,
    /** The audit view of one delivery. */
    eventOf,
    /** The audit view once the delivery is split (no longer pending). */
    splitEvent: (id: string) =>
      waitFor(async () => ((await eventOf(id)).outcome === 'pending' ? undefined : eventOf(id)), {
        what: `event ${id} split`,
      }),
    /** How many deliveries of exactly these bytes are in the audit log. */
    storedWithBody: (raw: string | Buffer) =>
      countRows('SELECT count(*) AS n FROM ingress.inbound_events WHERE body_sha256 = $1', [
        createHash('sha256').update(raw).digest('hex'),
      ]),
    /** Polls the collected items until `count` match. */
    waitForPublished: (field: string, value: unknown, count = 1) =>
      waitFor(() => publishedWith(field, value).length >= count && publishedWith(field, value), {
        what: `${count} item(s) with ${field} ${String(value)}`,
      }),
    /**
     * Waits until every stored event is split and every outbox row relayed, then until a marker item sent last
     * arrives: whatever was published before it has arrived too, so counting now is final.
     */
    settle: async () => {
      await waitFor(
        async () =>
          (await countRows(`SELECT count(*) AS n FROM ingress.inbound_events WHERE outcome = 'pending'`)) ===
            0 &&
          (await countRows(`SELECT count(*) AS n FROM ingress.outbox WHERE published_at IS NULL`)) === 0,
        { what: 'events split and relayed' },
      );
      const text = `marker ${uniqueSuffix()}`;
      await postJson(inboundTextBody(marker, upstreamId(), text)).expect(200);
      await waitFor(() => publishedWith('text', text).length > 0, { what: 'marker' });
    },
    stop: async () => {
      for (const instance of [...running]) await instance.stop();
      await collector.close();
      await db.destroy();
      await messaging.close();
      await database.drop();
    },
  };
}

export type IngressContext = Awaited<ReturnType<typeof setupIngress>>;

/** An ingress for the tests of the file (or describe block) that calls it, with `numbers` known to messaging. */
export function useIngress({ workers = true, numbers = [] as string[] } = {}): IngressContext {
  return useFixture(
    async () => {
      const ingress = await setupIngress({ workers });
      for (const phoneNumberId of numbers) ingress.messaging.register(phoneNumberId);
      return ingress;
    },
    (ingress) => ingress.stop(),
  );
}
