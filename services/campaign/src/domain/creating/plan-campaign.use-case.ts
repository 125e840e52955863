import type { CampaignPlanDto, CreateCampaignRequest } from '@bm/contracts';
import { futureScheduledAt } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { optedOutAmong } from '../managing/list-campaigns.use-case';
import { checkCampaignTemplate } from './check-campaign-template';
import { partSizes, plannedStart, tierLimitExceeded } from './split-across-days';

/** POST /api/v1/campaigns?dry_run=true: the same checks as a create, and the plan it would follow. */
export async function planCampaign(
  deps: CampaignDeps,
  tenantId: number,
  request: CreateCampaignRequest,
): Promise<CampaignPlanDto> {
  const scheduledAt = futureScheduledAt(request.scheduled_at, request.timezone);
  const checked = await checkCampaignTemplate(deps, tenantId, request);
  const capacity = await deps.messaging.capacity(tenantId, request.channel_account_id);
  const requested = request.recipients.length;
  const available = capacity.remaining ?? requested;
  if (available < requested && !request.split_across_days) throw tierLimitExceeded(capacity, requested);
  const sizes = partSizes(requested, available, capacity.daily_limit);
  const now = Date.now();
  const parts = sizes.map((size, index) => ({
    part_number: index + 1,
    requested_count: size,
    planned_at:
      plannedStart(scheduledAt, index + 1, deps.config.SPLIT_PART_INTERVAL_MS, now)?.toISOString() ?? null,
  }));
  const lastStart =
    plannedStart(scheduledAt, sizes.length, deps.config.SPLIT_PART_INTERVAL_MS, now)?.getTime() ?? now;
  const lastDurationMs = (sizes[sizes.length - 1] / checked.throughputPerSecond) * 1000;
  return {
    dry_run: true,
    requested_count: requested,
    capacity,
    split: sizes.length > 1,
    parts,
    throughput_per_second: checked.throughputPerSecond,
    estimated_finish_at: new Date(lastStart + lastDurationMs).toISOString(),
    opted_out_count: await optedOutAmong(deps, tenantId, request),
  };
}
