import { normalizePhone, type CampaignPlanDto, type CreateCampaignRequest } from '@bm/contracts';
import { futureScheduledAt } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { checkCampaignTemplate } from './check-campaign-template';
import { fitToCapacity } from './fit-to-capacity';
import { plannedStart } from './split-across-days';

/** How many of a planned campaign's recipients are opted out, so the dry run can say they will be skipped. */
function optedOutAmong(
  deps: Pick<CampaignDeps, 'optOuts'>,
  tenantId: number,
  request: Pick<CreateCampaignRequest, 'recipients'>,
): Promise<number> {
  const phones = request.recipients.flatMap((r) => {
    const phone = normalizePhone(r.phone);
    return phone === null ? [] : [phone];
  });
  return deps.optOuts.countAmong(tenantId, phones);
}

/** POST /api/v1/campaigns?dry_run=true: the same checks as a create, and the plan it would follow. */
export async function planCampaign(
  deps: Pick<CampaignDeps, 'config' | 'messaging' | 'optOuts'>,
  tenantId: number,
  request: CreateCampaignRequest,
): Promise<CampaignPlanDto> {
  const scheduledAt = futureScheduledAt(request.scheduled_at, request.timezone);
  const checked = await checkCampaignTemplate(deps, tenantId, request);
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
    opted_out_count: await optedOutAmong(deps, tenantId, request),
  };
}
