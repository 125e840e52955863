import {
  campaignClientFor,
  createServiceRuntime,
  messagingClientFor,
  openServiceBase,
  OutboxRelay,
  PeriodicTask,
  PgListener,
  WakeGate,
  type ServiceRuntime,
} from '@bm/platform';
import type { IngressConfig } from './config';
import { CampaignCustomerStops } from './data-access/campaign-client';
import { ChannelAccountLookup } from './data-access/channel-account-lookup';
import { createIngressDataSource, INGRESS_SCHEMA } from './data-access/data-source';
import { InboundEventRepository } from './data-access/inbound-event.repository';
import { BrokerItemSender } from './data-access/item-sender';
import { NotificationRepository } from './data-access/notification.repository';
import { PublishedItemRepository } from './data-access/published-item.repository';
import { DatabaseUnitOfWork } from './data-access/unit-of-work';
import type { IngressDeps } from './domain/ingress-deps';
import { ingressMetrics } from './domain/ingress-metrics';
import { processPendingEvents } from './domain/process-pending-events.use-case';
import { channelWebhookRoutes } from './entry-points/http/channel-webhook.routes';
import { registerNotificationConsumers } from './entry-points/consumers/notifications.consumer';
import { inboundEventRoutes } from './entry-points/http/inbound-events.routes';
import { notificationRoutes } from './entry-points/http/notifications.routes';

// How long a webhook's answer waits for the broker to confirm its items before it stores them in the outbox.
const SEND_CONFIRM_TIMEOUT_MS = 2_000;

export interface IngressService extends ServiceRuntime {
  deps: IngressDeps;
}

/** Wires webhook-ingress: the upstream's endpoints, the audit and notification APIs, the splitter and relay. */
export async function createIngressService(config: IngressConfig): Promise<IngressService> {
  const base = await openServiceBase('webhook-ingress', config, createIngressDataSource(config));
  const { logger, metrics, dataSource, amqp } = base;
  const events = new InboundEventRepository(dataSource, logger);
  const sender = new BrokerItemSender(amqp, logger, {
    timeoutMs: SEND_CONFIRM_TIMEOUT_MS,
    lingerMs: config.INGRESS_SEND_LINGER_MS,
  });
  const messaging = messagingClientFor(config);
  const campaign = config.CAMPAIGN_URL ? campaignClientFor(config) : undefined;
  const deps: IngressDeps = {
    config,
    logger,
    unitOfWork: new DatabaseUnitOfWork(dataSource),
    events,
    items: new PublishedItemRepository(),
    sender,
    notifications: new NotificationRepository(dataSource),
    accounts: new ChannelAccountLookup(messaging, config.ACCOUNT_CACHE_TTL_MS),
    customerStops: campaign && new CampaignCustomerStops(campaign),
    metrics: ingressMetrics(metrics, events),
  };
  // Wakes the relay and the splitter when there is work, so that an idle service costs next to nothing.
  const listener = new PgListener({ url: config.DATABASE_URL, logger, applicationName: 'ingress-listener' });
  // Bodies batch thousands of items: large passes, and a short pause so a quiet relay adds little latency.
  const relay = new OutboxRelay({
    listener,
    dataSource,
    schema: INGRESS_SCHEMA,
    amqp,
    logger,
    metrics,
    retentionHours: config.OUTBOX_RETENTION_HOURS,
    batchSize: 500,
    intervalMs: 50,
  });
  const splitter = new PeriodicTask(
    'inbound-splitter',
    config.INGRESS_PROCESS_INTERVAL_MS,
    () => processPendingEvents(deps),
    logger,
    {
      gate: new WakeGate(listener, 'ingress_inbound_events'),
      idleIntervalMs: config.INGRESS_PROCESS_IDLE_INTERVAL_MS,
      nextDueAt: () => events.nextDueAt(),
    },
  );

  const runtime = createServiceRuntime({
    ...base,
    port: config.INGRESS_PORT,
    describe: { messaging: config.MESSAGING_URL, campaign: config.CAMPAIGN_URL || null },
    http: {
      // The webhook route reads its body raw for the signature; the other routes take no body.
      parseJson: false,
      // Ready means webhooks can be stored: while the broker is away the outbox keeps their items.
      readyNeedsBroker: false,
      publicRoutes: (router) => channelWebhookRoutes(router, deps),
      routes: (router) => {
        inboundEventRoutes(router, deps);
        notificationRoutes(router, deps);
      },
    },
    consumers: () => registerNotificationConsumers(amqp, deps),
    relay,
    tasks: [splitter],
    drain: [sender.sends, events.inserts],
    connections: [
      { name: 'pg listener', close: () => listener.close() },
      { name: 'messaging client', close: () => messaging.close() },
      { name: 'campaign client', close: async () => campaign?.close() },
    ],
  });
  return { ...runtime, deps };
}
