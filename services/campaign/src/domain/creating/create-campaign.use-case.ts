import { ok, type CampaignCreatedDto, type CreateCampaignRequest, type SuccessEnvelope } from '@bm/contracts';
import { futureScheduledAt, newUlid, type IdempotentAnswer } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { toCreatedDto } from '../campaign.dto';
import { releaseCapacityHold } from '../release-capacity-hold';
import type { Campaign, NewCampaign } from '../ports/campaigns.port';
import { checkCampaignTemplate, type CheckedTemplate } from './check-campaign-template';
import { fitToCapacity } from './fit-to-capacity';
import { plannedStart } from './split-across-days';

type Created = SuccessEnvelope<CampaignCreatedDto>;

type CreateDeps = Pick<
  CampaignDeps,
  'config' | 'logger' | 'unitOfWork' | 'messaging' | 'idempotency' | 'wakePreparer'
>;

/** The campaign, or each part of a split, as stored before preparation writes the recipients. */
function partsOf(
  deps: CreateDeps,
  tenantId: number,
  request: CreateCampaignRequest,
  plan: {
    ids: { first: string; upload: string };
    checked: CheckedTemplate;
    sizes: readonly number[];
    scheduledAt: Date | null;
    idempotencyKey: string | undefined;
  },
): NewCampaign[] {
  const { ids, checked, sizes, scheduledAt, idempotencyKey } = plan;
  const split = sizes.length > 1;
  const groupId = split ? newUlid() : null;
  const baseName = request.campaign_name ?? (split ? request.template_name : null);
  const now = Date.now();
  let offset = 0;
  return sizes.map((size, index) => {
    const n = index + 1;
    const part: NewCampaign = {
      id: n === 1 ? ids.first : newUlid(),
      tenantId,
      channelAccountId: request.channel_account_id,
      name: split ? `${baseName} (${n}/${sizes.length})` : baseName,
      status: 'preparing',
      templateName: checked.template.name,
      templateLanguage: checked.template.language,
      templateCategory: checked.template.category,
      templateComponents: checked.template.components,
      templateParams: request.template_params ?? [],
      headerMedia: checked.headerMedia,
      requestedCount: size,
      scheduledAt: plannedStart(scheduledAt, n, deps.config.SPLIT_PART_INTERVAL_MS, now),
      campaignGroupId: groupId,
      partNumber: split ? n : null,
      partsTotal: split ? sizes.length : null,
      idempotencyKey:
        idempotencyKey === undefined ? null : split ? `${idempotencyKey}-p${n}` : idempotencyKey,
      uploadId: ids.upload,
      uploadOffset: offset,
    };
    offset += size;
    return part;
  });
}

/**
 * POST /api/v1/campaigns: checks the template and holds the number's capacity for the first part (so two
 * concurrent creates cannot both take the last slots), both before any transaction; then stores the list as
 * received and the campaign (or its parts) in one short transaction and answers 202 `preparing`. A refusal or a
 * failed write gives the hold back. The recipients are written in the background.
 */
export async function createCampaign(
  deps: CreateDeps,
  tenantId: number,
  request: CreateCampaignRequest,
  rawBody: string,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<Created>> {
  return deps.idempotency.run<Created>(tenantId, idempotencyKey, request, async (record) => {
    const scheduledAt = futureScheduledAt(request.scheduled_at, request.timezone);
    const requested = request.recipients.length;
    const ids = { first: newUlid(), upload: newUlid() };
    const [template, hold] = await Promise.allSettled([
      checkCampaignTemplate(deps, tenantId, request),
      deps.messaging.reserve(
        tenantId,
        request.channel_account_id,
        ids.first,
        requested,
        request.split_across_days,
      ),
    ]);
    try {
      if (template.status === 'rejected') throw template.reason;
      if (hold.status === 'rejected') throw hold.reason;
      const { granted, capacity } = hold.value;
      const sizes = fitToCapacity(requested, granted, capacity, request.split_across_days);
      const parts = partsOf(deps, tenantId, request, {
        ids,
        checked: template.value,
        sizes,
        scheduledAt,
        idempotencyKey,
      });
      const body = await deps.unitOfWork.run(async (tx) => {
        await tx.uploads.insertUpload(ids.upload, tenantId, rawBody);
        const stored: Campaign[] = [];
        for (const part of parts) stored.push(await tx.campaigns.insert(part));
        const answer = ok(toCreatedDto(stored));
        await record(tx, 202, answer);
        return answer;
      });
      deps.wakePreparer(ids.upload);
      return { status: 202, body };
    } catch (err) {
      if (hold.status === 'fulfilled' && hold.value.granted > 0) {
        await releaseCapacityHold(deps, {
          tenantId,
          channelAccountId: request.channel_account_id,
          id: ids.first,
        });
      }
      throw err;
    }
  });
}
