import type { DomainEventKey } from '@bm/contracts';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';
import {
  asTenant,
  exchangeTap,
  freshPhone,
  migrateOnce,
  newTenantId,
  serveInProcess,
  untilStatus,
  type Json,
} from '../../../../test/support/one-service';
import { loadMessagingConfig } from '../../src/config';
import { createMessagingDataSource } from '../../src/data-access/data-source';
import { createMessagingService } from '../../src/messaging';
import { startFakeUpstream } from './fake-upstream';

export { freshPhone, type Json };

/** Settings that make the background passes quick enough to watch; a test adds its own. */
const QUICK: Record<string, string> = {
  SCHEDULER_INTERVAL_MS: '100',
  SEND_RETRY_BASE_MS: '100',
  FLOW_SWEEP_INTERVAL_MS: '100',
};

/** Digits no other test uses, for a phone number id or a WABA id. */
export const freshDigits = (lead: string): string =>
  `${lead}${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

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
      MESSAGING_PORT: '0',
      UPSTREAM_BASE_URL: upstream.url,
      ...QUICK,
      ...overrides,
    }),
  );
  await migrateOnce('messaging', config, () => createMessagingDataSource(config));
  // The test's own reads go straight to the database, also when the service reaches it through a proxy.
  const served = await serveInProcess(
    await createMessagingService(config),
    testEnv().DATABASE_URL ?? config.DATABASE_URL,
  );
  const exchange = await exchangeTap(config);

  return {
    url: served.url,
    upstream,
    published: exchange.published,
    publishedWith: exchange.publishedWith,
    firstPublished: exchange.firstPublished,
    api: (tenantId: number) => asTenant(served.url, config.INTERNAL_TOKEN, tenantId),
    /** Runs SQL against messaging's tables (to read rows, or to leave one as a crashed worker would). */
    query: served.query,
    /** Publishes an item as webhook-ingress or campaign would (`headers`: as a retry carries them, say). */
    publish: (routingKey: DomainEventKey, fields: Json, headers?: Record<string, unknown>) =>
      exchange.publish(routingKey, { tenant_id: null, ...fields }, headers),
    /** Publishes an internal command's body as it is (`messaging.deliver`, say). */
    command: exchange.publishBody,
    stop: async () => {
      await served.stop();
      await exchange.close();
      await upstream.close();
    },
  };
}

export type MessagingContext = Awaited<ReturnType<typeof setupMessaging>>;

/** A tenant with one number connected through the operator route, its templates fetched from the fake upstream. */
export async function connectTenant(m: MessagingContext) {
  const tenantId = newTenantId();
  const number = { waba_id: freshDigits('2'), phone_number_id: freshDigits('1') };
  const api = m.api(tenantId);
  const connected = await api
    .post(`/admin/v1/tenants/${tenantId}/channel-accounts`, {
      ...number,
      display_phone_number: '+1 555 000 1111',
      access_token: 'fake-upstream-token',
      tier: 'TIER_1K',
    })
    .expect(201);
  const channelAccountId = connected.body.data.channel_account_id as string;
  const message = async (id: number) =>
    (await api.get(`/api/v1/messages/${id}`).expect(200)).body.data as Json;

  return {
    tenantId,
    phoneNumberId: number.phone_number_id,
    wabaId: number.waba_id,
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
    messageIn: (id: number, statuses: string[], timeoutMs?: number) =>
      untilStatus(() => message(id), statuses, `message ${id}`, timeoutMs),
    /** A receipt as webhook-ingress publishes it for this number (`fields` may name another number). */
    report: (
      providerMessageId: string,
      status: string,
      fields: Json = {},
      headers?: Record<string, unknown>,
    ) =>
      m.publish(
        'inbound.status',
        {
          ...number,
          provider_message_id: providerMessageId,
          status,
          errors: [],
          ...{ recipient_id: '0', pricing_category: null, conversation_id: null },
          ...fields,
        },
        headers,
      ),
    /** A customer's text to this number as webhook-ingress publishes it (`fields` make it a button reply). */
    inbound: (from: string, text: string, fields: Json = {}) =>
      m.publish('inbound.message', {
        ...number,
        ...{ message_id: `wamid.in.${uniqueSuffix()}`, from, name: 'Customer', type: 'text', text },
        ...{ media: null, button_payload: null, context_message_id: null },
        raw: { type: 'text', text: { body: text } },
        ...fields,
      }),
  };
}

export type TenantContext = Awaited<ReturnType<typeof connectTenant>>;

/**
 * A message whose first attempt a worker started `startedAgo` (an SQL interval) and never finished, as a killed
 * worker leaves it: handed over, or held for its slot; naming its worker (`claimedBy`) or none, as older replicas.
 */
export async function unfinishedClaim(
  m: MessagingContext,
  t: TenantContext,
  claim: { startedAgo: string; awaitingSlot?: boolean; claimedBy?: string | null },
) {
  const phone = freshPhone();
  const accepted = await t.send({ phone, scheduled_at: '2031-01-01T00:00:00Z' }).expect(202);
  const id = accepted.body.data.message_log_id as number;
  await m.query(
    `UPDATE messaging.message_logs SET status = 'queued', scheduled_at = NULL, send_attempts = 1,
            attempt_started_at = now() - $2::interval, awaiting_slot = $3, claimed_by = $4 WHERE id = $1`,
    [id, claim.startedAgo, claim.awaitingSlot ?? false, claim.claimedBy ?? null],
  );
  return { id, phone };
}

/** A send of the tenant's number, answered now, and its `sent` report: the number's reports have come this far. */
export async function sendReportedNow(t: TenantContext): Promise<void> {
  const id = (await t.send({ phone: freshPhone() }).expect(202)).body.data.message_log_id as number;
  const sent = await t.messageIn(id, ['sent']);
  await t.report(sent.provider_message_id as string, 'sent');
  await t.messageIn(id, ['sent']);
}

/**
 * Messaging (with these settings) and one connected tenant for a test file: started before its tests, stopped
 * after them. The two objects are filled in when the file starts.
 */
export function useMessaging(overrides: Record<string, string> = {}) {
  const m = {} as MessagingContext;
  const t = {} as TenantContext;
  beforeAll(async () => {
    Object.assign(m, await setupMessaging(overrides));
    Object.assign(t, await connectTenant(m));
  });
  afterAll(() => m.stop());
  return { m, t };
}
