import type { CampaignDeps } from './campaign-deps';

/**
 * Gives back a campaign's hold on its number's capacity. Best effort: a hold left behind only narrows the
 * capacity until it expires in messaging.
 */
export async function releaseCapacityHold(
  deps: Pick<CampaignDeps, 'messaging' | 'logger'>,
  campaign: { tenantId: number; channelAccountId: string; id: string },
): Promise<void> {
  try {
    await deps.messaging.release(campaign.tenantId, campaign.channelAccountId, campaign.id);
  } catch (err) {
    deps.logger.warn('could not release a capacity hold', {
      campaign_id: campaign.id,
      error: (err as Error).message,
    });
  }
}
