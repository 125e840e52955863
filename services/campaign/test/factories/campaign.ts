import request from 'supertest';
import { ulid } from 'ulidx';
import { INTERNAL_HEADERS, type SendRequestedCommand } from '@bm/contracts';
import { amqpClientFor, createLogger, runMigrations, startHttpServer } from '@bm/platform';
import { testEnv, uniqueSuffix, waitFor } from '@bm/platform/testing';
import { createCampaignService } from '../../src/campaign';
import { loadCampaignConfig } from '../../src/config';
import { createCampaignDataSource } from '../../src/data-access/data-source';
import { startFakeMessaging } from './fake-messaging';

export type Json = Record<string, unknown>;

/** How the stand-in for messaging's worker answers a send command: a status event, or nothing yet. */
export type Answer = 'sent' | 'failed' | null;

let migrated: Promise<void> | undefined;
let phones = Math.floor(Math.random() * 1e6);
/** A customer's phone (US) no other test of the file uses. */
export const freshPhone = (): string => `1415${String((phones += 1) % 1e7).padStart(7, '0')}`;

/**
 * The campaign service in this process on a free port, as its start script runs it, against the run's
 * PostgreSQL and an exchange of its own, with quick background passes; a fake of messaging's internal routes;
 * and, on that exchange, a stand-in for messaging's worker: it takes every send command the campaign publishes
 * and answers it with a `message.status_updated` event as `answerWith` says (sent unless told otherwise).
 */
export async function setupCampaign(overrides: Record<string, string> = {}) {
  const messaging = await startFakeMessaging();
  const config = loadCampaignConfig(
    testEnv({
      AMQP_PREFIX: `${testEnv().AMQP_PREFIX}.cmp${uniqueSuffix()}`,
      MESSAGING_URL: messaging.url,
      DISPATCH_INTERVAL_MS: '50',
      THROTTLE_RECHECK_MS: '200',
      PREPARE_SWEEP_INTERVAL_MS: '200',
      ...overrides,
    }),
  );
  migrated ??= (async () => {
    const dataSource = createCampaignDataSource(config);
    await runMigrations(dataSource).finally(() => dataSource.destroy());
  })();
  await migrated;
  const service = await createCampaignService(config);
  await service.startWorkers();
  const server = await startHttpServer(service.app, 0, '127.0.0.1');

  const commands: SendRequestedCommand[] = [];
  const published: Array<{ routingKey: string; payload: Json }> = [];
  let messageLogIds = Math.floor(Math.random() * 1e9);
  const worker = {
    answerWith: (_command: SendRequestedCommand): Answer => 'sent',
  };
  const broker = amqpClientFor(config, createLogger('test-broker', 'silent'));
  await broker.connect();

  /** Publishes messaging's status event of a send command, as its outbox relay would. */
  const answer = async (
    command: SendRequestedCommand,
    status: 'sent' | 'failed',
    messageLogId = (messageLogIds += 1),
  ) => {
    const eventId = ulid();
    const failed = status === 'failed';
    await broker.publish(
      'message.status_updated',
      {
        event_id: eventId,
        tenant_id: command.tenant_id,
        occurred_at: new Date().toISOString(),
        message_log_id: messageLogId,
        channel_account_id: command.channel_account_id,
        status,
        previous_status: 'queued',
        to_phone: command.phone,
        provider_message_id: failed ? null : `wamid.${eventId}`,
        error_code: failed ? 131026 : null,
        error_message: failed ? 'upstream error 131026: Message undeliverable' : null,
        campaign_id: command.campaign_id,
        campaign_recipient_id: command.campaign_recipient_id,
      },
      { messageId: eventId },
    );
  };
  await broker.consume(`collect.${uniqueSuffix()}`, ['#'], async (m) => {
    published.push({ routingKey: m.routingKey, payload: m.payload as Json });
    if (m.routingKey !== 'messaging.send_requested') return;
    const command = m.payload as SendRequestedCommand;
    commands.push(command);
    const status = worker.answerWith(command);
    if (status) await answer(command, status);
  });

  return {
    url: server.url,
    config,
    messaging,
    worker,
    answer,
    /** The send commands of a campaign, in the order they arrived. */
    commandsOf: (campaignId: string) => commands.filter((c) => c.campaign_id === campaignId),
    /** The campaign's own events (campaign.created, .started, .completed) of a campaign. */
    eventsOf: (campaignId: string) =>
      published.filter((p) => p.routingKey.startsWith('campaign.') && p.payload.campaign_id === campaignId),
    /** Publishes a customer's message as messaging does (the STOP / START keywords). */
    customerWrote: (tenantId: number, channelAccountId: string, from: string, text: string) => {
      const eventId = ulid();
      return broker.publish(
        'message.received',
        {
          event_id: eventId,
          tenant_id: tenantId,
          occurred_at: new Date().toISOString(),
          channel_account_id: channelAccountId,
          from,
          name: null,
          message_id: `wamid.in.${eventId}`,
          type: 'text',
          text,
          media: null,
        },
        { messageId: eventId },
      );
    },
    stop: async () => {
      await server.close();
      await service.close();
      await broker.close();
      await messaging.close();
    },
  };
}

export type CampaignContext = Awaited<ReturnType<typeof setupCampaign>>;

/** A tenant with one number known to the fake messaging, and its calls as the gateway forwards them. */
export function newTenant(c: CampaignContext, dailyLimit: number | null = null) {
  const tenantId = 100_000_000 + Math.floor(Math.random() * 2_000_000_000);
  const channelAccountId = ulid();
  c.messaging.addAccount(channelAccountId, tenantId, dailyLimit);
  const headers = {
    [INTERNAL_HEADERS.token]: c.config.INTERNAL_TOKEN,
    [INTERNAL_HEADERS.tenantId]: String(tenantId),
  };
  const get = (path: string) => request(c.url).get(path).set(headers);
  const post = (path: string, body?: Json) => request(c.url).post(path).set(headers).send(body);
  const campaign = async (id: string) => (await get(`/api/v1/campaigns/${id}`).expect(200)).body.data as Json;

  return {
    tenantId,
    channelAccountId,
    get,
    post,
    del: (path: string) => request(c.url).delete(path).set(headers),
    /** POST /api/v1/campaigns of spring_sale to these phones (each named), merged with `extra`. */
    create: (phones: string[], extra: Json = {}, query = '') =>
      post(`/api/v1/campaigns${query}`, {
        channel_account_id: channelAccountId,
        message_type: 'template',
        template_name: 'spring_sale',
        template_params: ['friend'],
        recipients: phones.map((phone) => ({ phone, name: `Customer ${phone.slice(-4)}` })),
        ...extra,
      }),
    campaign,
    /** Polls the campaign until its status is one of those given. */
    campaignIn: (id: string, statuses: string[], timeoutMs = 10_000) =>
      waitFor(
        async () => {
          const found = await campaign(id);
          return statuses.includes(found.status as string) && found;
        },
        { timeoutMs, what: `campaign ${id} ${statuses.join('|')}` },
      ),
    recipients: async (id: string) =>
      (await get(`/api/v1/campaigns/${id}/recipients?per_page=100`).expect(200)).body.data
        .recipients as Json[],
  };
}

export type TenantContext = ReturnType<typeof newTenant>;
