import {
  createServiceRuntime,
  IdempotencyStore,
  messagingClientFor,
  openServiceBase,
  OutboxRelay,
  PeriodicTask,
  PgListener,
  rateCardFromSetting,
  type ServiceRuntime,
} from '@bm/platform';
import type { CampaignConfig } from './config';
import { CampaignIdempotency, CampaignUnitOfWork } from './data-access/campaign-unit-of-work';
import { CampaignRepository, DISPATCH_CHANNEL } from './data-access/campaign.repository';
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
import { customerStopRoutes } from './entry-points/http/customer-stops.routes';

export interface CampaignService extends ServiceRuntime {
  deps: CampaignDeps;
}

/** Wires the campaign service: repositories, messaging client, HTTP routes, consumers and background work. */
export async function createCampaignService(config: CampaignConfig): Promise<CampaignService> {
  const base = await openServiceBase('campaign', config, createCampaignDataSource(config));
  const { logger, metrics, dataSource, amqp } = base;
  const preparing = new Set<Promise<unknown>>();
  // Places in flight freed by answers since the dispatcher's last pass, and how many call for a pass at once.
  let answered = 0;
  const refill = Math.max(
    1,
    Math.floor(Math.min(config.DISPATCH_BATCH_SIZE, config.DISPATCH_MAX_IN_FLIGHT) / 2),
  );

  const campaigns = new CampaignRepository(dataSource);
  const messaging = messagingClientFor(config);
  const deps: CampaignDeps = {
    config,
    logger,
    unitOfWork: new CampaignUnitOfWork(dataSource),
    campaigns,
    uploads: campaigns,
    recipients: new RecipientRepository(dataSource),
    optOuts: new OptOutRepository(dataSource),
    messaging: new MessagingClient(messaging),
    idempotency: new CampaignIdempotency(new IdempotencyStore(dataSource, CAMPAIGN_SCHEMA)),
    metrics: campaignMetrics(metrics, campaigns),
    rateCard: rateCardFromSetting(config.PRICING_RATE_CARD, logger, 'campaign cost estimates'),
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
    recipientsAnswered: (count) => {
      answered += count;
      if (answered < refill) return;
      answered = 0;
      dispatcher.wake();
    },
  };
  // Wakes the relay and the dispatcher when there is work, so that an idle service costs next to nothing.
  const listener = new PgListener({ url: config.DATABASE_URL, logger, applicationName: 'campaign-listener' });
  const relay = new OutboxRelay({
    dataSource,
    schema: CAMPAIGN_SCHEMA,
    amqp,
    logger,
    metrics,
    listener,
    retentionHours: config.OUTBOX_RETENTION_HOURS,
  });
  const dispatcher = new PeriodicTask(
    'campaign dispatch',
    config.DISPATCH_INTERVAL_MS,
    () => {
      answered = 0;
      return dispatchCampaigns(deps);
    },
    logger,
    { idleIntervalMs: config.DISPATCH_IDLE_INTERVAL_MS, nextDueAt: () => campaigns.nextDueAt() },
  );
  listener.listen(DISPATCH_CHANNEL, (at) => dispatcher.wakeAt(new Date(Number(at))));
  listener.onReconnect(() => dispatcher.wake());
  const sweeper = new PeriodicTask(
    'campaign preparation sweep',
    config.PREPARE_SWEEP_INTERVAL_MS,
    () => prepareWaitingUploads(deps),
    logger,
    { idleIntervalMs: config.PREPARE_SWEEP_IDLE_INTERVAL_MS },
  );

  const runtime = createServiceRuntime({
    ...base,
    port: config.CAMPAIGN_PORT,
    describe: { role: config.CAMPAIGN_ROLE },
    workers: config.CAMPAIGN_ROLE !== 'api',
    http: {
      bodyLimit: config.BODY_LIMIT,
      routes: (router) => {
        campaignRoutes(router, deps);
        optOutRoutes(router, deps);
        customerStopRoutes(router, deps);
      },
    },
    consumers: () => registerConsumers(amqp, deps),
    relay,
    tasks: [sweeper, dispatcher],
    // Preparations started by this replica finish (or the sweep of another takes them up).
    drain: [{ stop: () => Promise.allSettled([...preparing]) }],
    connections: [
      { name: 'pg listener', close: () => listener.close() },
      { name: 'messaging client', close: () => messaging.close() },
    ],
  });
  return { ...runtime, deps };
}
