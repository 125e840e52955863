import { Client } from 'pg';
import request from 'supertest';
import { ulid } from 'ulidx';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { amqpClientFor, createLogger, runMigrations, type CommonConfig } from '@bm/platform';
import { migrateUnlessApplied, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { itemsOf } from './events';

/*
 * What the component tests of one service (services/<name>/test) share: the service started in this process as
 * its start script starts it, its migrations, calls as the gateway forwards them, and a client on the service's
 * exchange standing in for its neighbours.
 */

export type Json = Record<string, unknown>;
type DataSource = Parameters<typeof runMigrations>[0];

/** What a service's create function returns, as far as starting and stopping it goes. */
interface Startable {
  /** The workers, then HTTP on the configured port (0 in tests: a free one). */
  start(): Promise<{ url: string }>;
  close(): Promise<void>;
}

const migrated = new Map<string, Promise<void>>();

/** Runs a service's migrations once per test process and database, unless a file before found them pending. */
export function migrateOnce(
  schema: string,
  config: CommonConfig,
  dataSource: () => DataSource,
): Promise<void> {
  const key = `${schema} ${config.DATABASE_URL}`;
  const migrate = () => migrateUnlessApplied(dataSource(), runMigrations);
  if (!migrated.has(key)) migrated.set(key, migrate());
  return migrated.get(key)!;
}

/**
 * The service started as its start script starts it (workers, then HTTP); `query` reads and writes its tables
 * over a connection of the test's own; `stop` closes the service as a SIGTERM would, then that connection.
 */
export async function serveInProcess(service: Startable, databaseUrl: string) {
  const server = await service.start();
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  return {
    url: server.url,
    query: async <T = Json>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[],
    stop: async () => {
      await service.close();
      await db.end();
    },
  };
}

/** A call as the gateway forwards it: its internal token, and the tenant it authenticated. */
export function asTenant(url: string, internalToken: string, tenantId: number) {
  const headers = { [INTERNAL_HEADERS.token]: internalToken, [INTERNAL_HEADERS.tenantId]: String(tenantId) };
  return {
    get: (path: string) => request(url).get(path).set(headers),
    post: (path: string, body?: Json) => request(url).post(path).set(headers).send(body),
    put: (path: string, body?: Json) => request(url).put(path).set(headers).send(body),
    del: (path: string) => request(url).delete(path).set(headers),
  };
}

/** A tenant id no other test uses (test files share the run's database). */
export const newTenantId = (): number => 100_000_000 + Math.floor(Math.random() * 2_000_000_000);

/**
 * A client on the service's exchange: it publishes what the service's neighbours would (a fresh event id each)
 * and collects everything published there, events and commands alike, in arrival order.
 */
export async function exchangeTap(config: CommonConfig) {
  const published: Array<{ routingKey: string; payload: Json }> = [];
  const listeners: Array<(routingKey: string, payload: Json) => Promise<void>> = [];
  const broker = amqpClientFor(config, createLogger('test-exchange', 'silent'));
  await broker.connect();
  await broker.consume(`collect.${uniqueSuffix()}`, ['#'], async (m) => {
    // Named by its event, whichever key it came under (DIRECT_STATUS_ROUTING_KEY is a `message.status_updated`),
    // and a batch of status events as each event it holds.
    for (const { routingKey, payload } of itemsOf(m.routingKey, m.payload as Json, m.headers)) {
      published.push({ routingKey, payload });
      for (const listener of listeners) await listener(routingKey, payload);
    }
  });
  const publishedWith = (routingKey: string, field: string, value: unknown) =>
    published.filter((p) => p.routingKey === routingKey && p.payload[field] === value).map((p) => p.payload);
  return {
    published,
    /** Called with every item as it arrives (a neighbour that answers what the service publishes). */
    onPublished: (listener: (routingKey: string, payload: Json) => Promise<void>) => listeners.push(listener),
    publish: (routingKey: string, fields: Json, headers: Record<string, unknown> = {}) => {
      const eventId = ulid();
      const payload = { event_id: eventId, occurred_at: new Date().toISOString(), ...fields };
      return broker.publish(routingKey, payload, { messageId: eventId, headers });
    },
    /** Publishes a body as it is (an internal command, which carries no event fields). */
    publishBody: (routingKey: string, body: Json, headers: Record<string, unknown> = {}) =>
      broker.publish(routingKey, body, { messageId: ulid(), headers }),
    /** The payloads published under a routing key whose `field` equals `value`. */
    publishedWith: (routingKey: string, field: string, value: unknown) =>
      published
        .filter((p) => p.routingKey === routingKey && p.payload[field] === value)
        .map((p) => p.payload),
    /** Waits for the first payload published under a routing key whose `field` equals `value`. */
    firstPublished: (routingKey: string, field: string, value: unknown) =>
      waitFor(() => publishedWith(routingKey, field, value)[0], {
        what: `${routingKey} with ${field} ${String(value)}`,
      }),
    close: () => broker.close(),
  };
}

let phones = Math.floor(Math.random() * 1e6);
/** A customer's phone (US digits) no other test of the file uses. */
export const freshPhone = (): string => `1415${String((phones += 1) % 1e7).padStart(7, '0')}`;

/** Polls a resource until its `status` is one of those given, and answers it. */
export function untilStatus(read: () => Promise<Json>, statuses: string[], what: string, timeoutMs = 10_000) {
  return waitFor(
    async () => {
      const found = await read();
      return statuses.includes(found.status as string) && found;
    },
    { timeoutMs, what: `${what} ${statuses.join('|')}` },
  );
}
