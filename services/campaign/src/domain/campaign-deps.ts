import type { IdempotencyStore, Logger } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { CampaignConfig } from '../config';
import type { CampaignRepository } from '../data-access/campaign.repository';
import type { MessagingClient } from '../data-access/messaging-client';
import type { OptOutRepository } from '../data-access/opt-out.repository';
import type { RecipientRepository } from '../data-access/recipient.repository';
import type { CampaignMetrics } from './campaign-metrics';

/** What the campaign use cases work with. */
export interface CampaignDeps {
  config: CampaignConfig;
  logger: Logger;
  dataSource: DataSource;
  campaigns: CampaignRepository;
  recipients: RecipientRepository;
  optOuts: OptOutRepository;
  messaging: MessagingClient;
  idempotency: IdempotencyStore;
  metrics: CampaignMetrics;
  /** Asks the background preparation to look at an upload now (it also sweeps on its own). */
  wakePreparer(uploadId: string): void;
  /** Asks the dispatcher for a pass now (a campaign became due or a recipient was answered). */
  wakeDispatcher(): void;
}
