import type { CampaignPlanDto, CreateCampaignRequest } from '@bm/contracts';
import { futureScheduledAt } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import type { NewRecipient } from '../ports/recipients.port';
import { checkCampaignTemplate } from './check-campaign-template';
import { estimateCost, pricedRecipientOf } from './estimate-cost';
import { fitToCapacity } from './fit-to-capacity';
import { chunkOf } from './recipient-rows';
import { plannedStart } from './split-across-days';

/**
 * The recipients a campaign of this list would send to, as preparation writes them (duplicates dropped, invalid
 * rows left out, opted-out customers skipped), and how many were opted out, so the dry run can say so.
 */
async function deliverable(
  deps: Pick<CampaignDeps, 'optOuts'>,
  tenantId: number,
  request: Pick<CreateCampaignRequest, 'recipients'>,
): Promise<{ recipients: NewRecipient[]; optedOut: number }> {
  const { recipients: list } = request;
  const valid = chunkOf(list, 0, list.length, new Set()).filter((r) => r.error === null);
  const optedOut = new Set(
    await deps.optOuts.optedOutAmong(
      tenantId,
      valid.map((r) => r.phone),
    ),
  );
  return { recipients: valid.filter((r) => !optedOut.has(r.phone)), optedOut: optedOut.size };
}

/** POST /api/v1/campaigns?dry_run=true: the same checks as a create, and the plan it would follow. */
export async function planCampaign(
  deps: Pick<CampaignDeps, 'config' | 'messaging' | 'optOuts' | 'rateCard'>,
  tenantId: number,
  request: CreateCampaignRequest,
): Promise<CampaignPlanDto> {
  const scheduledAt = futureScheduledAt(request.scheduled_at, request.timezone);
  const checked = await checkCampaignTemplate(deps, tenantId, request);
  const { recipients, optedOut } = await deliverable(deps, tenantId, request);
  const estimate = estimateCost(
    deps.rateCard,
    checked.template.category,
    recipients.map((r) => ({ to: pricedRecipientOf(r), count: 1 })),
  );
  const capacity = await deps.messaging.capacity(tenantId, request.channel_account_id);
  const requested = request.recipients.length;
  const sizes = fitToCapacity(
    requested,
    capacity.remaining ?? requested,
    capacity,
    request.split_across_days,
  );
  const now = Date.now();
  const startOf = (n: number) => plannedStart(scheduledAt, n, deps.config.SPLIT_PART_INTERVAL_MS, now);
  const parts = sizes.map((size, index) => ({
    part_number: index + 1,
    requested_count: size,
    planned_at: startOf(index + 1)?.toISOString() ?? null,
  }));
  const lastStart = startOf(sizes.length)?.getTime() ?? now;
  const lastDurationMs = (sizes[sizes.length - 1] / checked.throughputPerSecond) * 1000;
  return {
    dry_run: true,
    requested_count: requested,
    capacity,
    split: sizes.length > 1,
    parts,
    throughput_per_second: checked.throughputPerSecond,
    estimated_finish_at: new Date(lastStart + lastDurationMs).toISOString(),
    opted_out_count: optedOut,
    estimated_cost: estimate.amount,
    cost_currency: estimate.currency,
  };
}
