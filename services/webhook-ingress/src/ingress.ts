import type { Express } from 'express';
import {
  amqpClientFor,
  createHttpApp,
  createLogger,
  messagingClientFor,
  type Logger,
  OutboxRelay,
  PeriodicTask,
  pingDatabase,
  requireInternalCaller,
  serviceHealthRoutes,
  serviceMetrics,
} from '@bm/platform';
import type { IngressConfig } from './config';
import { ChannelAccountLookup } from './data-access/channel-account-lookup';
import { createIngressDataSource, INGRESS_SCHEMA } from './data-access/data-source';
import { InboundEventRepository } from './data-access/inbound-event.repository';
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

export interface IngressService {
  app: Express;
  logger: Logger;
  deps: IngressDeps;
  /** Starts splitting stored events, relaying the outbox and keeping messaging's live-chat requests. */
  startWorkers(): Promise<void>;
  /** Stops in reverse: the splitter, the relay, then the connections. */
  close(): Promise<void>;
}

/** Wires webhook-ingress: the upstream's endpoints, the audit and notification APIs, the splitter and relay. */
export async function createIngressService(config: IngressConfig): Promise<IngressService> {
  const logger = createLogger('webhook-ingress', config.LOG_LEVEL);
  const metrics = serviceMetrics('webhook-ingress');
  const dataSource = createIngressDataSource(config);
  await dataSource.initialize();
  const amqp = amqpClientFor(config, logger, metrics);
  const events = new InboundEventRepository(dataSource);
  const messaging = messagingClientFor(config);
  const deps: IngressDeps = {
    config,
    logger,
    unitOfWork: new DatabaseUnitOfWork(dataSource),
    events,
    items: new PublishedItemRepository(),
    notifications: new NotificationRepository(dataSource),
    accounts: new ChannelAccountLookup(messaging, config.ACCOUNT_CACHE_TTL_MS),
    metrics: ingressMetrics(metrics, events),
  };
  // Bodies batch thousands of items: large passes, and a short pause so a quiet relay adds little latency.
  const relay = new OutboxRelay({
    dataSource,
    schema: INGRESS_SCHEMA,
    amqp,
    logger,
    metrics,
    batchSize: 500,
    intervalMs: 50,
  });
  const splitter = new PeriodicTask(
    'inbound-splitter',
    config.INGRESS_PROCESS_INTERVAL_MS,
    () => processPendingEvents(deps),
    logger,
  );

  const app = createHttpApp({
    logger,
    metrics,
    // The webhook route reads its body raw for the signature; the other routes take no body.
    parseJson: false,
    routes: (a) => {
      // Ready means webhooks can be stored: while the broker is away the outbox keeps their items.
      serviceHealthRoutes(a.router, { database: () => pingDatabase(dataSource) });
      channelWebhookRoutes(a.router, deps);
      a.use(requireInternalCaller(config.INTERNAL_TOKEN));
      inboundEventRoutes(a.router, deps);
      notificationRoutes(a.router, deps);
    },
  });

  return {
    app,
    logger,
    deps,
    startWorkers: async () => {
      await registerNotificationConsumers(amqp, deps);
      await amqp.connect();
      relay.start();
      splitter.start();
    },
    close: async () => {
      await splitter.stop();
      await relay.stop();
      await amqp.close();
      await messaging.close();
      await dataSource.destroy();
    },
  };
}
