import request from 'supertest';
import { ulid } from 'ulidx';
import { INTERNAL_HEADERS, type DomainEventKey } from '@bm/contracts';
import { amqpClientFor, createLogger, runMigrations, startHttpServer } from '@bm/platform';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { loadMessagingConfig } from '../../src/config';
import { createMessagingDataSource } from '../../src/data-access/data-source';
import { createMessagingService } from '../../src/messaging';
import { startFakeUpstream } from './fake-upstream';

export type Json = Record<string, unknown>;

/** What messaging published on its exchange (events and commands), in arrival order. */
export interface Published {
  routingKey: string;
  payload: Json;
}

let migrated: Promise<void> | undefined;

/** Settings that make the background passes quick enough to watch; a test adds its own. */
const QUICK: Record<string, string> = {
  SCHEDULER_INTERVAL_MS: '100',
  SEND_RETRY_BASE_MS: '100',
  FLOW_SWEEP_INTERVAL_MS: '100',
};

/** Digits no other test uses, for a phone number id or a WABA id. */
export const freshDigits = (lead = '1'): string =>
  `${lead}${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

let phones = Math.floor(Math.random() * 1e6);
/** A customer's phone (US) no other test of the file uses. */
export const freshPhone = (): string => `1415${String((phones += 1) % 1e7).padStart(7, '0')}`;

/**
 * Messaging in this process on a free port, as its start script runs it, against the run's PostgreSQL and Redis
 * and an exchange of its own; a fake of the upstream Cloud API; and a client on that exchange standing in for
 * webhook-ingress and campaign (it publishes their items) and collecting what messaging publishes.
 */
export async function setupMessaging(overrides: Record<string, string> = {}) {
  const upstream = await startFakeUpstream();
  const config = loadMessagingConfig(
    testEnv({
      AMQP_PREFIX: `${testEnv().AMQP_PREFIX}.msg${uniqueSuffix()}`,
      REDIS_PREFIX: `${testEnv().REDIS_PREFIX}msg${uniqueSuffix()}:`,
      UPSTREAM_BASE_URL: upstream.url,
      ...QUICK,
      ...overrides,
    }),
  );
  migrated ??= (async () => {
    const dataSource = createMessagingDataSource(config);
    await runMigrations(dataSource).finally(() => dataSource.destroy());
  })();
  await migrated;
  const service = await createMessagingService(config);
  await service.startWorkers();
  const server = await startHttpServer(service.app, 0, '127.0.0.1');

  const published: Published[] = [];
  const broker = amqpClientFor(config, createLogger('test-broker', 'silent'));
  await broker.connect();
  await broker.consume(`collect.${uniqueSuffix()}`, ['#'], async (m) => {
    published.push({ routingKey: m.routingKey, payload: m.payload as Json });
    await Promise.resolve();
  });
  const db = service.deps.dataSource;

  /** A call as the gateway forwards it: the internal token, and the tenant it authenticated. */
  const api = (tenantId: number) => {
    const headers = {
      [INTERNAL_HEADERS.token]: config.INTERNAL_TOKEN,
      [INTERNAL_HEADERS.tenantId]: String(tenantId),
    };
    const agent = request(server.url);
    return {
      get: (path: string) => agent.get(path).set(headers),
      post: (path: string, body?: Json) => agent.post(path).set(headers).send(body),
      put: (path: string, body?: Json) => agent.put(path).set(headers).send(body),
    };
  };

  return {
    url: server.url,
    config,
    upstream,
    published,
    api,
    /** Runs SQL against messaging's tables (to read rows, or to leave one as a crashed worker would). */
    query: <T = Json>(sql: string, params: unknown[] = []) => db.query<T[]>(sql, params),
    /** Publishes an item as webhook-ingress or campaign would, with a fresh event id. */
    publish: (routingKey: DomainEventKey, fields: Json) => {
      const eventId = ulid();
      const payload = {
        event_id: eventId,
        tenant_id: null,
        occurred_at: new Date().toISOString(),
        ...fields,
      };
      return broker.publish(routingKey, payload, { messageId: eventId });
    },
    /** The published items under a routing key whose payload has `field` equal to `value`. */
    publishedWith: (routingKey: string, field: string, value: unknown) =>
      published
        .filter((p) => p.routingKey === routingKey && p.payload[field] === value)
        .map((p) => p.payload),
    stop: async () => {
      await server.close();
      await service.close();
      await broker.close();
      await upstream.close();
    },
  };
}

export type MessagingContext = Awaited<ReturnType<typeof setupMessaging>>;

/** A tenant with one number connected through the operator route, its templates fetched from the fake upstream. */
export async function connectTenant(m: MessagingContext, extra: Json = {}) {
  const tenantId = 100_000_000 + Math.floor(Math.random() * 2_000_000_000);
  const phoneNumberId = freshDigits('1');
  const wabaId = freshDigits('2');
  const connected = await m
    .api(tenantId)
    .post(`/admin/v1/tenants/${tenantId}/channel-accounts`, {
      phone_number_id: phoneNumberId,
      waba_id: wabaId,
      display_phone_number: '+1 555 000 1111',
      access_token: 'fake-upstream-token',
      tier: 'TIER_1K',
      ...extra,
    })
    .expect(201);
  const channelAccountId = connected.body.data.channel_account_id as string;
  const api = m.api(tenantId);
  const message = async (id: number) =>
    (await api.get(`/api/v1/messages/${id}`).expect(200)).body.data as Json;

  return {
    tenantId,
    phoneNumberId,
    wabaId,
    channelAccountId,
    account: connected.body.data as Json,
    api,
    /** POST /api/v1/messages/send of hello_world to a fresh phone unless the body says otherwise. */
    send: (body: Json = {}) =>
      api.post('/api/v1/messages/send', {
        channel_account_id: channelAccountId,
        phone: freshPhone(),
        message_type: 'template',
        data: { name: 'hello_world' },
        ...body,
      }),
    message,
    /** Polls the message until its status is one of those given. */
    messageIn: (id: number, statuses: string[], timeoutMs = 10_000) =>
      waitFor(
        async () => {
          const found = await message(id);
          return statuses.includes(found.status as string) && found;
        },
        { timeoutMs, what: `message ${id} ${statuses.join('|')}` },
      ),
    /** A receipt as webhook-ingress publishes it for this number. */
    report: (providerMessageId: string, status: string, extraFields: Json = {}) =>
      m.publish('inbound.status', {
        waba_id: wabaId,
        phone_number_id: phoneNumberId,
        provider_message_id: providerMessageId,
        status,
        recipient_id: '0',
        errors: [],
        pricing_category: null,
        conversation_id: null,
        ...extraFields,
      }),
    /** A customer's message to this number, as webhook-ingress publishes it. */
    inbound: (from: string, text: string, extraFields: Json = {}) =>
      m.publish('inbound.message', {
        waba_id: wabaId,
        phone_number_id: phoneNumberId,
        message_id: `wamid.in.${uniqueSuffix()}`,
        from,
        name: 'Customer',
        type: 'text',
        text,
        media: null,
        button_payload: null,
        context_message_id: null,
        raw: { type: 'text', text: { body: text } },
        ...extraFields,
      }),
  };
}

export type TenantContext = Awaited<ReturnType<typeof connectTenant>>;
