import {
  createServiceRuntime,
  openServiceBase,
  PeriodicTask,
  SecretBox,
  type ServiceRuntime,
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
import { DeliveryWorker, leaseSettings } from './entry-points/workers/delivery-worker';
import type { DispatcherDeps } from './domain/dispatcher-deps';
import { purgeOldDeliveries } from './domain/purge-old-deliveries.use-case';
import { registerConsumers } from './entry-points/consumers/domain-events.consumer';
import { deliveriesRoutes } from './entry-points/http/deliveries.routes';
import { endpointsRoutes } from './entry-points/http/endpoints.routes';
import { settingsRoutes } from './entry-points/http/settings.routes';

export interface DispatcherService extends ServiceRuntime {
  deps: DispatcherDeps;
  worker: DeliveryWorker;
}

/** Wires the webhook dispatcher: repositories, the guarded sender, HTTP routes, the consumer and the worker. */
export async function createDispatcherService(config: DispatcherConfig): Promise<DispatcherService> {
  const base = await openServiceBase('webhook-dispatcher', config, createDispatcherDataSource(config));
  const { logger, metrics, dataSource, amqp } = base;
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
    // Deliveries leased as they are stored go straight to this replica's worker.
    events: new EventRepository(dataSource, leaseSettings(config), {
      reserve: (max) => worker.reserve(max),
      adopt: (leased, reserved) => worker.adopt(leased, reserved),
    }),
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
  const runtime = createServiceRuntime({
    ...base,
    port: config.DISPATCHER_PORT,
    describe: { allow_http: config.DISPATCHER_ALLOW_HTTP, allowed_hosts: config.DISPATCHER_ALLOWED_HOSTS },
    workers: config.DISPATCHER_ROLE !== 'api',
    http: {
      bodyLimit: config.BODY_LIMIT,
      routes: (router) => {
        settingsRoutes(router, deps);
        deliveriesRoutes(router, deps);
        endpointsRoutes(router, deps);
      },
    },
    consumers: () => registerConsumers(amqp, deps),
    // The worker stops last: its in-flight attempts are given back for another instance to make now.
    tasks: [worker, retention],
    connections: [{ name: 'webhook sender', close: () => sender.close() }],
  });
  return { ...runtime, deps, worker };
}
