import type { Express } from 'express';
import {
  amqpClientFor,
  createHttpApp,
  createLogger,
  IdempotencyStore,
  messagingClientFor,
  type Logger,
  OutboxRelay,
  PeriodicTask,
  pingDatabase,
  requireInternalCaller,
  serviceHealthRoutes,
  serviceMetrics,
} from '@bm/platform';
import type { CampaignConfig } from './config';
import { CampaignIdempotency, CampaignUnitOfWork } from './data-access/campaign-unit-of-work';
import { CampaignRepository } from './data-access/campaign.repository';
import { CAMPAIGN_SCHEMA, createCampaignDataSource } from './data-access/data-source';
import { MessagingClient } from './data-access/messaging-client';
import { OptOutRepository } from './data-access/opt-out.repository';
import { RecipientRepository } from './data-access/recipient.repository';
import type { CampaignDeps } from './domain/campaign-deps';
import { campaignMetrics } from './domain/campaign-metrics';
import { dispatchCampaigns } from './domain/sending/dispatch-campaigns.use-case';
import { prepareUpload } from './domain/creating/prepare-campaign.use-case';
import { prepareWaitingUploads } from './domain/creating/prepare-waiting-campaigns.use-case';
import { registerConsumers } from './entry-points/consumers/campaign.consumers';
import { campaignRoutes } from './entry-points/http/campaigns.routes';
import { optOutRoutes } from './entry-points/http/opt-outs.routes';

export interface CampaignService {
  app: Express;
  logger: Logger;
  deps: CampaignDeps;
  /** Starts the consumers, the outbox relay, preparation and the dispatcher. */
  startWorkers(): Promise<void>;
  /** Stops in reverse: background passes (finished), consumers (drained), relay, then the connections. */
  close(): Promise<void>;
}

/** Wires the campaign service: repositories, messaging client, HTTP routes, consumers and background work. */
export async function createCampaignService(config: CampaignConfig): Promise<CampaignService> {
  const logger = createLogger('campaign', config.LOG_LEVEL);
  const dataSource = createCampaignDataSource(config);
  await dataSource.initialize();
  const metrics = serviceMetrics('campaign');
  const amqp = amqpClientFor(config, logger, metrics);
  const withWorkers = config.CAMPAIGN_ROLE !== 'api';
  const preparing = new Set<Promise<unknown>>();

  const campaigns = new CampaignRepository(dataSource);
  const messaging = messagingClientFor(config);
  const deps: CampaignDeps = {
    config,
    logger,
    unitOfWork: new CampaignUnitOfWork(dataSource),
    campaigns,
    recipients: new RecipientRepository(dataSource),
    optOuts: new OptOutRepository(dataSource),
    messaging: new MessagingClient(messaging),
    idempotency: new CampaignIdempotency(new IdempotencyStore(dataSource, CAMPAIGN_SCHEMA)),
    metrics: campaignMetrics(metrics, campaigns),
    // The replica that took the list starts on it at once; if it dies first, the sweep of any worker does it.
    wakePreparer: (uploadId) => {
      const work = prepareUpload(deps, uploadId)
        .then((done) => done && deps.wakeDispatcher())
        .catch((err: unknown) =>
          logger.warn('campaign preparation failed; the sweep retries it', { error: (err as Error).message }),
        )
        .finally(() => preparing.delete(work));
      preparing.add(work);
    },
    wakeDispatcher: () => dispatcher.wake(),
  };
  const relay = new OutboxRelay({ dataSource, schema: CAMPAIGN_SCHEMA, amqp, logger, metrics });
  const dispatcher = new PeriodicTask(
    'campaign dispatch',
    config.DISPATCH_INTERVAL_MS,
    () => dispatchCampaigns(deps),
    logger,
  );
  const sweeper = new PeriodicTask(
    'campaign preparation sweep',
    config.PREPARE_SWEEP_INTERVAL_MS,
    () => prepareWaitingUploads(deps),
    logger,
  );

  const app = createHttpApp({
    logger,
    bodyLimit: config.BODY_LIMIT,
    securityHeaders: false,
    routes: (a) => {
      serviceHealthRoutes(a.router, {
        database: () => pingDatabase(dataSource),
        ...(withWorkers ? { broker: amqp.ready } : {}),
      });
      a.use(requireInternalCaller(config.INTERNAL_TOKEN));
      campaignRoutes(a.router, deps);
      optOutRoutes(a.router, deps);
    },
  });

  return {
    app,
    logger,
    deps,
    startWorkers: async () => {
      await registerConsumers(amqp, deps);
      await amqp.connect();
      relay.start();
      sweeper.start();
      dispatcher.start();
    },
    close: async () => {
      await dispatcher.stop();
      await sweeper.stop();
      await Promise.allSettled([...preparing]);
      await amqp.close();
      await relay.stop();
      await messaging.close();
      await dataSource.destroy();
    },
  };
}
