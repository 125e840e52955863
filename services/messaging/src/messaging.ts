import {
  createRedis,
  createServiceRuntime,
  IdempotencyStore,
  openServiceBase,
  OutboxRelay,
  PeriodicTask,
  PgListener,
  rateCardFromSetting,
  SecretBox,
  type ServiceRuntime,
  InternalClient,
} from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { MessagingConfig } from './config';
import { ChannelAccountRepository } from './data-access/channel-account.repository';
import { ConversationLedger } from './data-access/conversation-ledger.repository';
import { CustomerStateRepository } from './data-access/customer-state.repository';
import { FlowRepository } from './data-access/flow.repository';
import { FlowSessionRepository } from './data-access/flow-session.repository';
import { createMessagingDataSource, MESSAGING_SCHEMA } from './data-access/data-source';
import { InboundMessageRepository } from './data-access/inbound-message.repository';
import { ConversationRepository } from './data-access/conversation.repository';
import { GatewayDashboardUsers } from './data-access/gateway-dashboard-users';
import { MessageLogRepository } from './data-access/message-log.repository';
import { MessageStatsRepository } from './data-access/message-stats.repository';
import { DeliveryQueue } from './data-access/delivery-queue-watch';
import { DUE_CHANNEL, MessageSweepRepository } from './data-access/message-sweep.repository';
import { MessageLogWriter } from './data-access/message-log-writer';
import { MessagingOutbox } from './data-access/outbox';
import { RedisSlotSchedule } from './data-access/redis-slot-schedule';
import { ClaimedSends } from './data-access/send-hand-over';
import { SendWorkerLease } from './data-access/send-worker-lease';
import { StatusEventSender } from './data-access/status-event-sender';
import { ReportedThroughMarks } from './data-access/reported-through-marks';
import { StatusReportBatches } from './data-access/status-report-batches';
import { StatusReportRepository } from './data-access/status-report.repository';
import { TemplateRepository } from './data-access/template.repository';
import { idempotentRequests, TransactionRunner } from './data-access/unit-of-work';
import { CloudApiClient } from './data-access/upstream/cloud-api.client';
import { upstreamMetrics } from './data-access/upstream/upstream-metrics';
import { expireFlowSessions } from './domain/flows/expire-flow-sessions.use-case';
import type { MessagingDeps } from './domain/messaging-deps';
import { foldStatsShards } from './domain/messages/fold-stats-shards.use-case';
import { releaseDueMessages } from './domain/scheduling/release-due-messages.use-case';
import { applyStatusReports } from './domain/statuses/apply-status-report.use-case';
import { expirePendingReports } from './domain/statuses/expire-pending-reports.use-case';
import { ThroughputLimiter } from './domain/sending/throughput-limiter';
import { registerConsumers } from './entry-points/consumers/messaging.consumers';
import { capacityRoutes } from './entry-points/http/capacity.routes';
import { optOutCopyRoutes } from './entry-points/http/opt-outs.routes';
import { channelLookupRoutes } from './entry-points/http/channel-lookup.routes';
import { flowRoutes } from './entry-points/http/flows.routes';
import { conversationRoutes } from './entry-points/http/conversations.routes';
import { MEDIA_UPLOAD_PATH, mediaRoutes } from './entry-points/http/media.routes';
import { messageRoutes } from './entry-points/http/messages.routes';
import { templateRoutes } from './entry-points/http/templates.routes';
import { dashboardRoutes } from './entry-points/http/dashboard.routes';
import { refutableAfterMs, settleWindowMs } from './domain/scheduling/settle-abandoned-attempts.use-case';

export interface MessagingService extends ServiceRuntime {
  /** The ports the routes and consumers hand to the use cases, and the data source (tests read it). */
  deps: MessagingDeps & { dataSource: DataSource };
}

// How long a status batch waits for the broker to confirm its events before it stores them in the outbox.
const STATUS_EVENT_CONFIRM_MS = 2_000;
// How long how far each number's reports came may wait in memory before it is written (one write per number then).
const REPORT_MARK_FLUSH_MS = 500;

/** Wires the messaging service: repositories, upstream adapter, HTTP routes, consumers and background tasks. */
export async function createMessagingService(config: MessagingConfig): Promise<MessagingService> {
  const base = await openServiceBase('messaging', config, createMessagingDataSource(config));
  const { logger, metrics, dataSource, amqp } = base;
  const redis = createRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX, logger });
  const messages = new MessageLogRepository(dataSource, config.CAPACITY_WINDOW_MS);
  const messageWriter = new MessageLogWriter(messages, dataSource);
  const accounts = new ChannelAccountRepository(dataSource);
  const statusReports = new StatusReportRepository(dataSource);
  const statusEvents = new StatusEventSender(dataSource, amqp, logger, STATUS_EVENT_CONFIRM_MS);
  const lease = new SendWorkerLease(dataSource, config.SEND_WORKER_LEASE_MS);
  const gateway = new InternalClient({
    service: 'gateway',
    baseUrl: config.GATEWAY_URL,
    token: config.INTERNAL_TOKEN,
    timeoutMs: config.GATEWAY_TIMEOUT_MS,
    connections: 4,
  });
  const deps: MessagingService['deps'] = {
    dataSource,
    config,
    logger,
    unitOfWork: new TransactionRunner(dataSource),
    outbox: new MessagingOutbox(),
    secrets: new SecretBox(config.ENCRYPTION_KEY),
    upstream: new CloudApiClient(
      config.UPSTREAM_BASE_URL,
      config.UPSTREAM_API_VERSION,
      config.UPSTREAM_TIMEOUT_MS,
      upstreamMetrics(metrics),
    ),
    accounts,
    templates: new TemplateRepository(dataSource),
    messages,
    reader: messages,
    sendQueue: messages,
    handOver: new ClaimedSends(
      messages,
      lease,
      new ThroughputLimiter(new RedisSlotSchedule(redis), config.THROUGHPUT_SAFETY),
      config,
      logger,
    ),
    statusReports,
    statusEvents,
    statusIntake: new StatusReportBatches(
      dataSource,
      statusReports,
      accounts,
      (tx, reports, found) => applyStatusReports(deps, tx, reports, found),
      statusEvents,
      new ReportedThroughMarks(dataSource, logger, REPORT_MARK_FLUSH_MS),
      logger,
    ),
    sweeps: new MessageSweepRepository(dataSource),
    deliveryQueue: new DeliveryQueue(dataSource, amqp),
    messageWriter,
    customers: new CustomerStateRepository(dataSource),
    inbound: new InboundMessageRepository(),
    conversations: new ConversationRepository(dataSource),
    dashboardUsers: new GatewayDashboardUsers(gateway),
    stats: new MessageStatsRepository(dataSource),
    ledger: new ConversationLedger(dataSource, config.CAPACITY_WINDOW_MS),
    idempotency: idempotentRequests(new IdempotencyStore(dataSource, MESSAGING_SCHEMA)),
    flows: new FlowRepository(dataSource),
    flowSessions: new FlowSessionRepository(dataSource),
    rateCard: rateCardFromSetting(config.PRICING_RATE_CARD, logger, 'message costs'),
  };
  // Wakes the relay and the scheduler when there is work, so that an idle service costs next to nothing.
  const listener = new PgListener({
    url: config.DATABASE_URL,
    logger,
    applicationName: 'messaging-listener',
  });
  // Status receipts and sends come in bursts of thousands: large passes, and a short pause when quiet.
  const relay = new OutboxRelay({
    dataSource,
    schema: MESSAGING_SCHEMA,
    amqp,
    logger,
    metrics,
    retentionHours: config.OUTBOX_RETENTION_HOURS,
    batchSize: 500,
    intervalMs: 50,
    listener,
  });
  const scheduler = new PeriodicTask(
    'scheduler',
    config.SCHEDULER_INTERVAL_MS,
    () => releaseDueMessages(deps),
    logger,
    {
      idleIntervalMs: config.SCHEDULER_IDLE_INTERVAL_MS,
      // An unfinished attempt is looked at once its number's reports could refute it, then at its window's end.
      nextDueAt: () => deps.sweeps.nextDueAt(Math.min(refutableAfterMs(config), settleWindowMs(config))),
    },
  );
  listener.listen(DUE_CHANNEL, (at) => scheduler.wakeAt(new Date(Number(at))));
  listener.onReconnect(() => scheduler.wake());
  // The send worker's lease on its claims; a renewal that finds another worker's lapsed has the scheduler take its
  // claims over now.
  const leaseRenewal = new PeriodicTask(
    'send worker lease',
    Math.floor(config.SEND_WORKER_LEASE_MS / 5),
    async () => {
      if ((await lease.renew()) > 0) scheduler.wake();
    },
    logger,
  );
  const reportRetention = new PeriodicTask(
    'pending report retention',
    10 * 60 * 1000,
    () => expirePendingReports(deps),
    logger,
  );
  // The daily figures sum a month of hourly counters: one row per hour and status reads faster than one per shard.
  const statsFolding = new PeriodicTask(
    'message stats folding',
    10 * 60 * 1000,
    () => foldStatsShards(deps),
    logger,
  );
  const flowSweep = new PeriodicTask(
    'flow-session-timeouts',
    config.FLOW_SWEEP_INTERVAL_MS,
    () => expireFlowSessions(deps),
    logger,
  );

  const runtime = createServiceRuntime({
    ...base,
    redis,
    port: config.MESSAGING_PORT,
    describe: { upstream: config.UPSTREAM_BASE_URL },
    workers: config.MESSAGING_ROLE !== 'api',
    http: {
      bodyLimit: config.BODY_LIMIT,
      rawBodyPaths: [MEDIA_UPLOAD_PATH],
      routes: (router) => {
        messageRoutes(router, deps);
        templateRoutes(router, deps);
        capacityRoutes(router, deps);
        optOutCopyRoutes(router, deps);
        channelLookupRoutes(router, deps);
        flowRoutes(router, deps);
        conversationRoutes(router, deps);
        mediaRoutes(router, deps);
        dashboardRoutes(router, deps);
      },
    },
    consumers: () => registerConsumers(amqp, deps),
    relay,
    tasks: [leaseRenewal, scheduler, flowSweep, reportRetention, statsFolding],
    // Once the consumers stopped nothing is in flight: the lease ends, so no replica waits for it to lapse.
    drain: [messageWriter.inserts, { stop: () => lease.release().catch(() => undefined) }],
    connections: [
      { name: 'pg listener', close: () => listener.close() },
      { name: 'gateway client', close: () => gateway.close() },
    ],
  });
  return { ...runtime, deps };
}
