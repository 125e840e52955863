import { createDataSource, OutboxEventEntity } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { MessagingConfig } from '../config';
import { ChannelAccountEntity } from './channel-account.entity';
import { TemplateEntity } from './template.entity';
import { TemplateRejectedReason1766750000000 } from './migrations/1766750000000-template-rejected-reason';
import { CreateMessaging1763900000000 } from './migrations/1763900000000-create-messaging';
import { PartialUniqueIndexes1763900000001 } from './migrations/1763900000001-partial-unique-indexes';
import { QueuedAttemptsIndex1763900000002 } from './migrations/1763900000002-queued-attempts-index';
import { StrandedQueuedIndex1763900000003 } from './migrations/1763900000003-stranded-queued-index';
import { DropProcessedEvents1763900000004 } from './migrations/1763900000004-drop-processed-events';
import { CreateFlows1763900000005 } from './migrations/1763900000005-create-flows';
import { VersionedOptOuts1763900000006 } from './migrations/1763900000006-versioned-opt-outs';
import { MessageTraces1763900000007 } from './migrations/1763900000007-message-traces';
import { AwaitingSlot1763900000008 } from './migrations/1763900000008-awaiting-slot';
import { UnknownOutcomeResend1763900000009 } from './migrations/1763900000009-unknown-outcome-resend';
import { TemplateQualityFlag1763900000012 } from './migrations/1763900000012-template-quality-flag';
import { ChannelAccountHealth1764900000001 } from './migrations/1764900000001-channel-account-health';
import { MessageStats1764900000010 } from './migrations/1764900000010-message-stats';
import { CampaignRecipientAttempt1764900000020 } from './migrations/1764900000020-campaign-recipient-attempt';
import { IdleWake1765200000000 } from './migrations/1765200000000-idle-wake';
import { MessageStatsStatic1765300000000 } from './migrations/1765300000000-static-stats-triggers';
import { HoldsAndRetries1766000000000 } from './migrations/1766000000000-holds-and-retries';
import { CustomersByUserId1766000000001 } from './migrations/1766000000001-customers-by-user-id';
import { MessagePricing1766000000002 } from './migrations/1766000000002-message-pricing';
import { BusinessPortfolios1766000000003 } from './migrations/1766000000003-business-portfolios';
import { SendsToUserIds1766000000004 } from './migrations/1766000000004-sends-to-user-ids';
import { MessageCostDaily1766000000005 } from './migrations/1766000000005-message-cost-daily';
import { CustomerLinks1766000000006 } from './migrations/1766000000006-customer-links';
import { ReportMarks1766200000000 } from './migrations/1766200000000-report-marks';
import { SendWorkerLeases1766300000000 } from './migrations/1766300000000-send-worker-leases';
import { InboxConversations1766400000000 } from './migrations/1766400000000-inbox-conversations';
import { IdempotencyClaimTokens1766500000000 } from './migrations/1766500000000-idempotency-claim-tokens';
import { ConversationEvents1766600000000 } from './migrations/1766600000000-conversation-events';
import { MessageStatsFromHourly1767200000000 } from './migrations/1767200000000-daily-from-hourly';

export const MESSAGING_SCHEMA = 'messaging';

/** The messaging service's data source: schema `messaging`, its own migrations table. */
export function createMessagingDataSource(config: MessagingConfig): DataSource {
  return createDataSource({
    url: config.DATABASE_URL,
    schema: MESSAGING_SCHEMA,
    entities: [ChannelAccountEntity, TemplateEntity, OutboxEventEntity],
    migrations: [
      CreateMessaging1763900000000,
      PartialUniqueIndexes1763900000001,
      QueuedAttemptsIndex1763900000002,
      StrandedQueuedIndex1763900000003,
      DropProcessedEvents1763900000004,
      CreateFlows1763900000005,
      VersionedOptOuts1763900000006,
      MessageTraces1763900000007,
      AwaitingSlot1763900000008,
      UnknownOutcomeResend1763900000009,
      TemplateQualityFlag1763900000012,
      ChannelAccountHealth1764900000001,
      MessageStats1764900000010,
      CampaignRecipientAttempt1764900000020,
      IdleWake1765200000000,
      MessageStatsStatic1765300000000,
      HoldsAndRetries1766000000000,
      CustomersByUserId1766000000001,
      MessagePricing1766000000002,
      BusinessPortfolios1766000000003,
      SendsToUserIds1766000000004,
      MessageCostDaily1766000000005,
      CustomerLinks1766000000006,
      ReportMarks1766200000000,
      SendWorkerLeases1766300000000,
      InboxConversations1766400000000,
      IdempotencyClaimTokens1766500000000,
      ConversationEvents1766600000000,
      TemplateRejectedReason1766750000000,
      MessageStatsFromHourly1767200000000,
    ],
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'messaging',
  });
}
