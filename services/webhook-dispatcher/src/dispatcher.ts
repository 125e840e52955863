import type { Express } from 'express';
import {
  amqpClientFor,
  createHttpApp,
  createLogger,
  type Logger,
  PeriodicTask,
  pingDatabase,
  requireInternalCaller,
  SecretBox,
  serviceHealthRoutes,
  serviceMetrics,
} from '@bm/platform';
import type { DispatcherConfig } from './config';
import { createDispatcherDataSource } from './data-access/data-source';
import { DeliveryLogRepository } from './data-access/delivery-log.repository';
import { DeliveryRepository } from './data-access/delivery.repository';
import { EndpointRepository } from './data-access/endpoint.repository';
import { EventRepository } from './data-access/event.repository';
import { webhookMetrics } from './data-access/http/webhook-metrics';
import { WebhookSender } from './data-access/http/webhook-sender';
import { RetentionRepository } from './data-access/retention.repository';
import { AddressPolicy } from './domain/address-policy';
import { DeliveryWorker } from './domain/delivery-worker';
import type { DispatcherDeps } from './domain/dispatcher-deps';
import { purgeOldDeliveries } from './domain/purge-old-deliveries.use-case';
import { registerConsumers } from './entry-points/consumers/domain-events.consumer';
import { deliveriesRoutes } from './entry-points/http/deliveries.routes';
import { settingsRoutes } from './entry-points/http/settings.routes';

export interface DispatcherService {
  app: Express;
  logger: Logger;
  deps: DispatcherDeps;
  worker: DeliveryWorker;
  /** Starts consuming domain events, delivering and purging what is past the retention. */
  startWorkers(): Promise<void>;
  /** Stops in reverse: consumer (drained), worker (in-flight attempts given back), then the connections. */
  close(): Promise<void>;
}

/** Wires the webhook dispatcher: repositories, the guarded sender, HTTP routes, the consumer and the worker. */
export async function createDispatcherService(config: DispatcherConfig): Promise<DispatcherService> {
  const logger = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  const metrics = serviceMetrics('webhook-dispatcher');
  const dataSource = createDispatcherDataSource(config);
  await dataSource.initialize();
  const amqp = amqpClientFor(config, logger, metrics);
  const policy = new AddressPolicy(config.DISPATCHER_ALLOW_HTTP, config.DISPATCHER_ALLOWED_HOSTS);
  const sender = new WebhookSender(policy, {
    timeoutMs: config.DISPATCHER_TIMEOUT_MS,
    excerptBytes: config.DISPATCHER_RESPONSE_EXCERPT_BYTES,
    connectionsPerOrigin: config.DISPATCHER_ENDPOINT_CONCURRENCY,
  });
  const deps: DispatcherDeps = {
    config,
    logger,
    secrets: new SecretBox(config.ENCRYPTION_KEY),
    policy,
    sender,
    endpoints: new EndpointRepository(dataSource),
    events: new EventRepository(dataSource),
    deliveries: new DeliveryRepository(dataSource),
    deliveryLog: new DeliveryLogRepository(dataSource),
    retention: new RetentionRepository(dataSource),
    wakeWorker: () => worker.wake(),
    metrics: webhookMetrics(metrics),
  };
  const worker = new DeliveryWorker(deps);
  const retention = new PeriodicTask(
    'webhook retention',
    config.DISPATCHER_RETENTION_INTERVAL_MS,
    () => purgeOldDeliveries(deps),
    logger,
  );
  const withWorkers = config.DISPATCHER_ROLE !== 'api';

  const app = createHttpApp({
    logger,
    metrics,
    bodyLimit: config.BODY_LIMIT,
    securityHeaders: false,
    routes: (a) => {
      serviceHealthRoutes(a.router, {
        database: () => pingDatabase(dataSource),
        // An API-only deployment never connects to the broker: the workers consume and deliver.
        ...(withWorkers ? { broker: amqp.ready } : {}),
      });
      a.use(requireInternalCaller(config.INTERNAL_TOKEN));
      settingsRoutes(a.router, deps);
      deliveriesRoutes(a.router, deps);
    },
  });

  return {
    app,
    logger,
    deps,
    worker,
    startWorkers: async () => {
      await registerConsumers(amqp, deps);
      await amqp.connect();
      worker.start();
      retention.start();
    },
    close: async () => {
      await retention.stop();
      await amqp.close();
      await worker.stop();
      await sender.close();
      await dataSource.destroy();
    },
  };
}
