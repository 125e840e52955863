import type { Express } from 'express';
import {
  amqpClientFor,
  createHttpApp,
  createLogger,
  type Logger,
  OutboxRelay,
  PeriodicTask,
  PgListener,
  WakeGate,
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
  const deps: IngressDeps = {
    config,
    logger,
    dataSource,
    events: new InboundEventRepository(dataSource),
    items: new PublishedItemRepository(),
    notifications: new NotificationRepository(dataSource),
    accounts: new ChannelAccountLookup(
      config.MESSAGING_URL,
      config.INTERNAL_TOKEN,
      config.ACCOUNT_CACHE_TTL_MS,
      config.MESSAGING_TIMEOUT_MS,
    ),
    metrics: ingressMetrics(metrics, dataSource),
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
      nextDueAt: () => deps.events.nextDueAt(),
    },
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
      await listener.start();
      await relay.start();
      await splitter.start();
    },
    close: async () => {
      await splitter.stop();
      await relay.stop();
      await listener.close();
      await amqp.close();
      await dataSource.destroy();
    },
  };
}
