import type { Logger, RateCard } from '@bm/platform';
import type { CampaignConfig } from '../config';
import type { CampaignMetrics } from './campaign-metrics';
import type { Campaigns } from './ports/campaigns.port';
import type { Uploads } from './ports/uploads.port';
import type { MessagingPort } from './ports/messaging.port';
import type { OptOuts } from './ports/opt-outs.port';
import type { Recipients } from './ports/recipients.port';
import type { IdempotentRequests, UnitOfWork } from './ports/unit-of-work.port';

/**
 * Everything the campaign use cases may be given; each takes only the part it uses (`Pick<CampaignDeps, …>`).
 * The stores here work outside any transaction; `unitOfWork` gives them inside one.
 */
export interface CampaignDeps {
  config: CampaignConfig;
  logger: Logger;
  unitOfWork: UnitOfWork;
  campaigns: Campaigns;
  uploads: Uploads;
  recipients: Recipients;
  optOuts: OptOuts;
  messaging: MessagingPort;
  idempotency: IdempotentRequests;
  metrics: CampaignMetrics;
  /** The operator's prices (PRICING_RATE_CARD, as messaging's), by which a campaign's cost is estimated. */
  rateCard: RateCard;
  /** Asks the background preparation to look at an upload now (it also sweeps on its own). */
  wakePreparer(uploadId: string): void;
  /** Asks the dispatcher for a pass now (a campaign became due or a recipient was answered). */
  wakeDispatcher(): void;
  /**
   * Tells the dispatcher that answers freed this many places in flight: it steps again once half a batch is free,
   * so a campaign held by its in-flight bound is refilled as messaging answers, not one interval later.
   */
  recipientsAnswered(count: number): void;
}
