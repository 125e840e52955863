import {
  CANCELLABLE_CAMPAIGN_STATUSES,
  PAUSABLE_CAMPAIGN_STATUSES,
  paginationOf,
  RETRYABLE_CAMPAIGN_STATUSES,
  ulidSchema,
  type CampaignCancelledDto,
  type CampaignDto,
  type CampaignRecipientListDto,
  type CampaignRecipientsQuery,
  type CampaignRetryDto,
  type CampaignStatus,
  type ErrorCode,
} from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { Campaign } from '../data-access/campaign.repository';
import type { CampaignDeps } from './campaign-deps';
import { toCampaignDto, toRecipientDto } from './campaign.dto';

/** A tenant's campaign; 404 CAMPAIGN_NOT_FOUND for a malformed id, an unknown one or another tenant's. */
async function campaignOf(deps: CampaignDeps, tenantId: number, id: string): Promise<Campaign> {
  const campaign = ulidSchema.validate(id).error
    ? undefined
    : await deps.campaigns.findForTenant(id, tenantId);
  if (!campaign) throw new AppError('CAMPAIGN_NOT_FOUND');
  return campaign;
}

async function dtoOf(deps: CampaignDeps, campaign: Campaign): Promise<CampaignDto> {
  return toCampaignDto(campaign, await deps.campaigns.counts(deps.dataSource, campaign.id));
}

export async function getCampaign(deps: CampaignDeps, tenantId: number, id: string): Promise<CampaignDto> {
  return dtoOf(deps, await campaignOf(deps, tenantId, id));
}

export async function listRecipients(
  deps: CampaignDeps,
  tenantId: number,
  id: string,
  query: CampaignRecipientsQuery,
): Promise<CampaignRecipientListDto> {
  const campaign = await campaignOf(deps, tenantId, id);
  const { recipients, total } = await deps.recipients.page(
    campaign.id,
    query.status,
    query.page,
    query.per_page,
  );
  return {
    campaign_id: campaign.id,
    recipients: recipients.map(toRecipientDto),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}

/** Moves a campaign between statuses, or answers `refusal` (409) with the status it is in. */
async function transition(
  deps: CampaignDeps,
  tenantId: number,
  id: string,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  refusal: ErrorCode,
): Promise<Campaign> {
  const current = await campaignOf(deps, tenantId, id);
  const moved = await deps.campaigns.transition(deps.dataSource, current.id, tenantId, from, to);
  if (moved) return moved;
  const now = (await deps.campaigns.findForTenant(current.id, tenantId)) ?? current;
  throw new AppError(refusal, undefined, { status: now.status });
}

/** Cancels a campaign nothing has been sent for (pending, or a split part waiting as scheduled). */
export async function cancelCampaign(
  deps: CampaignDeps,
  tenantId: number,
  id: string,
): Promise<CampaignCancelledDto> {
  const campaign = await transition(
    deps,
    tenantId,
    id,
    CANCELLABLE_CAMPAIGN_STATUSES,
    'cancelled',
    'CAMPAIGN_NOT_CANCELLABLE',
  );
  await deps.messaging
    .release(tenantId, campaign.channelAccountId, campaign.id)
    .catch((err: unknown) =>
      deps.logger.warn('could not release a capacity hold', { error: (err as Error).message }),
    );
  deps.wakeDispatcher();
  return { success: true, campaign_id: campaign.id, status: 'cancelled' };
}

/** Stops handing recipients to messaging; those already handed over still finish. */
export async function pauseCampaign(deps: CampaignDeps, tenantId: number, id: string): Promise<CampaignDto> {
  return dtoOf(
    deps,
    await transition(deps, tenantId, id, PAUSABLE_CAMPAIGN_STATUSES, 'paused', 'CAMPAIGN_NOT_PAUSABLE'),
  );
}

export async function resumeCampaign(deps: CampaignDeps, tenantId: number, id: string): Promise<CampaignDto> {
  const campaign = await transition(deps, tenantId, id, ['paused'], 'processing', 'CAMPAIGN_NOT_RESUMABLE');
  deps.wakeDispatcher();
  return dtoOf(deps, campaign);
}

/**
 * Sends again to a completed or failed campaign's failed recipients (not invalid phones, not opt-outs): each
 * gets a new attempt and the campaign starts over as `pending`, with its events.
 */
export async function retryCampaign(
  deps: CampaignDeps,
  tenantId: number,
  id: string,
): Promise<CampaignRetryDto> {
  const current = await campaignOf(deps, tenantId, id);
  const result = await deps.dataSource.transaction(async (tx) => {
    const campaign = await deps.campaigns.findForTenant(current.id, tenantId, tx, true);
    if (!campaign || !RETRYABLE_CAMPAIGN_STATUSES.includes(campaign.status)) {
      throw new AppError('CAMPAIGN_NOT_RETRYABLE', undefined, { status: campaign?.status ?? current.status });
    }
    const retried = await deps.recipients.resetFailed(tx, campaign.id, tenantId);
    if (retried === 0) return { campaign, retried };
    await deps.campaigns.setStatus(tx, campaign.id, 'pending', { reopened: true });
    return { campaign: { ...campaign, status: 'pending' as const, failureReason: null }, retried };
  });
  if (result.retried > 0) deps.wakeDispatcher();
  return { ...(await dtoOf(deps, result.campaign)), retried_count: result.retried };
}
