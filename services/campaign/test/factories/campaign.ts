import { ulid } from 'ulidx';
import {
  DOMAIN_EVENTS,
  sendOfBatch,
  type SendRequestedCommand,
  type SendsRequestedCommand,
} from '@bm/contracts';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';
import * as oneService from '../../../../test/support/one-service';
import { createCampaignService } from '../../src/campaign';
import { loadCampaignConfig } from '../../src/config';
import { createCampaignDataSource } from '../../src/data-access/data-source';
import { startFakeMessaging } from './fake-messaging';

export const { freshPhone } = oneService;
type Json = oneService.Json;

/** How the stand-in for messaging's worker answers a send command: a status event, or nothing yet. */
export type Answer = 'sent' | 'failed' | null;

/**
 * The campaign service in this process on a free port, as its start script runs it, against the run's
 * PostgreSQL and an exchange of its own, with quick background passes; a fake of messaging's internal routes;
 * and, on that exchange, a stand-in for messaging's worker: it takes every send command the campaign publishes
 * and answers it with a `message.status_updated` event as `worker.answerWith` says (sent unless told otherwise).
 */
export async function setupCampaign(overrides: Record<string, string> = {}) {
  const messaging = await startFakeMessaging();
  const config = loadCampaignConfig(
    testEnv({
      AMQP_PREFIX: `${testEnv().AMQP_PREFIX}.cmp${uniqueSuffix()}`,
      CAMPAIGN_PORT: '0',
      MESSAGING_URL: messaging.url,
      DISPATCH_INTERVAL_MS: '50',
      THROTTLE_RECHECK_MS: '200',
      PREPARE_SWEEP_INTERVAL_MS: '200',
      COST_REFRESH_MS: '0',
      ...overrides,
    }),
  );
  await oneService.migrateOnce('campaign', config, () => createCampaignDataSource(config));
  const served = await oneService.serveInProcess(await createCampaignService(config), config.DATABASE_URL);
  const exchange = await oneService.exchangeTap(config);
  const worker = { answerWith: (_command: SendRequestedCommand): Answer => 'sent' };
  let messageLogIds = Math.floor(Math.random() * 1e9);

  /** Publishes messaging's status event of a send command, as its outbox relay would. */
  const answer = (
    command: SendRequestedCommand,
    status: 'sent' | 'failed',
    messageLogId = (messageLogIds += 1),
  ) => {
    const failed = status === 'failed';
    return exchange.publish('message.status_updated', {
      tenant_id: command.tenant_id,
      message_log_id: messageLogId,
      channel_account_id: command.channel_account_id,
      status,
      previous_status: 'queued',
      to_phone: command.phone,
      provider_message_id: failed ? null : `wamid.${ulid()}`,
      error_code: failed ? 131026 : null,
      error_message: failed ? 'upstream error 131026: Message undeliverable' : null,
      campaign_id: command.campaign_id,
      campaign_recipient_id: command.campaign_recipient_id,
      campaign_recipient_attempt: command.campaign_recipient_attempt,
    });
  };
  /** The single send commands a published command stands for (a batch command's items, each as its own). */
  const sendsOf = (routingKey: string, payload: Json): SendRequestedCommand[] => {
    if (routingKey === DOMAIN_EVENTS.messagingSendRequested)
      return [payload as unknown as SendRequestedCommand];
    if (routingKey !== DOMAIN_EVENTS.messagingSendsRequested) return [];
    const batch = payload as unknown as SendsRequestedCommand;
    return batch.sends.map((_, i) => sendOfBatch(batch, i));
  };
  exchange.onPublished(async (routingKey, payload) => {
    for (const command of sendsOf(routingKey, payload)) {
      const status = worker.answerWith(command);
      if (status) await answer(command, status);
    }
  });
  const commands = () => exchange.published.flatMap((p) => sendsOf(p.routingKey, p.payload));

  return {
    url: served.url,
    config,
    messaging,
    worker,
    answer,
    /** The send commands of a campaign, in the order they arrived. */
    commandsOf: (campaignId: string) => commands().filter((c) => c.campaign_id === campaignId),
    /** The campaign's own events (campaign.created, .started, .completed) of a campaign. */
    eventsOf: (campaignId: string) =>
      exchange.published.filter(
        (p) => p.routingKey.startsWith('campaign.') && p.payload.campaign_id === campaignId,
      ),
    /** Publishes a customer's text as messaging does (the STOP / START keywords). */
    customerWrote: (tenantId: number, channelAccountId: string, from: string, text: string) =>
      exchange.publish('message.received', {
        ...{ tenant_id: tenantId, channel_account_id: channelAccountId, from, name: null },
        ...{ message_id: `wamid.in.${uniqueSuffix()}`, type: 'text', text, media: null },
      }),
    /** Publishes a customer's choice of marketing as messaging does (from a `user_preferences` webhook). */
    customerChose: (
      tenantId: number,
      channelAccountId: string,
      phone: string,
      value: 'stop' | 'resume',
      at: { chosen_at: string; received_at: string },
    ) =>
      exchange.publish('customer.marketing_preference', {
        ...{ tenant_id: tenantId, channel_account_id: channelAccountId, phone, user_id: null },
        ...{ value, reason: 'user_preferences', ...at },
      }),
    /** Publishes any event on the service's exchange, as a neighbour would. */
    publish: exchange.publish,
    stop: async () => {
      await served.stop();
      await exchange.close();
      await messaging.close();
    },
  };
}

export type CampaignContext = Awaited<ReturnType<typeof setupCampaign>>;

/** A tenant with one number known to the fake messaging (with this daily limit), and its calls. */
export function newTenant(c: CampaignContext, dailyLimit: number | null = null) {
  const tenantId = oneService.newTenantId();
  const channelAccountId = ulid();
  c.messaging.addAccount(channelAccountId, tenantId, dailyLimit);
  const api = oneService.asTenant(c.url, c.config.INTERNAL_TOKEN, tenantId);
  const campaign = async (id: string) =>
    (await api.get(`/api/v1/campaigns/${id}`).expect(200)).body.data as Json;

  return {
    ...api,
    tenantId,
    channelAccountId,
    /** POST /api/v1/campaigns of spring_sale to these phones (each named), merged with `extra`. */
    create: (phones: string[], extra: Json = {}, query = '') =>
      api.post(`/api/v1/campaigns${query}`, {
        channel_account_id: channelAccountId,
        message_type: 'template',
        template_name: 'spring_sale',
        template_params: ['friend'],
        recipients: phones.map((phone) => ({ phone, name: `Customer ${phone.slice(-4)}` })),
        ...extra,
      }),
    campaign,
    /** Polls the campaign until its status is one of those given. */
    campaignIn: (id: string, statuses: string[]) =>
      oneService.untilStatus(() => campaign(id), statuses, `campaign ${id}`),
    recipients: async (id: string) =>
      (await api.get(`/api/v1/campaigns/${id}/recipients?per_page=100`).expect(200)).body.data
        .recipients as Json[],
  };
}

export type TenantContext = ReturnType<typeof newTenant>;

/** The campaign service (with these settings) for a test file: started before its tests, stopped after them. */
export function useCampaign(overrides: Record<string, string> = {}) {
  const c = {} as CampaignContext;
  beforeAll(async () => {
    Object.assign(c, await setupCampaign(overrides));
  });
  afterAll(() => c.stop());
  return c;
}
