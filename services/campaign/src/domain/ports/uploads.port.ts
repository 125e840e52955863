import type { CampaignStatus } from '@bm/contracts';
import type { Campaign, CostEstimate } from './campaigns.port';

/**
 * The lists campaigns were created from, stored as received until preparation writes their recipients (inside a
 * unit of work, its writes commit with it).
 */
export interface Uploads {
  /** Stores a list as received, for preparation to write its recipients. */
  insertUpload(id: string, tenantId: number, body: string): Promise<void>;
  /** Locks a stored list for preparation; undefined when it is gone or another replica holds it. */
  lockUpload(id: string): Promise<{ id: string; body: string } | undefined>;
  /** The campaigns of a list, locked, in part order. */
  lockUploadCampaigns(uploadId: string): Promise<Campaign[]>;
  /** Stored lists waiting for preparation, oldest first, less those already tried in this pass. */
  waitingUploadIds(exceptIds: readonly string[], limit: number): Promise<string[]>;
  deleteUpload(id: string): Promise<void>;
  /** A prepared campaign: its status after preparation, its final recipient count and its estimated cost. */
  finishPreparation(
    id: string,
    status: CampaignStatus,
    totalCount: number,
    estimate: CostEstimate | null,
  ): Promise<Campaign>;
}
