import { ok, type CampaignCreatedDto, type CreateCampaignRequest, type SuccessEnvelope } from '@bm/contracts';
import { futureScheduledAt, newUlid, type IdempotentAnswer } from '@bm/platform';
import type { Campaign } from '../../data-access/campaign.repository';
import type { CampaignDeps } from '../campaign-deps';
import { toCreatedDto } from '../campaign.dto';
import { checkCampaignTemplate } from './check-campaign-template';
import { partSizes, plannedStart, tierLimitExceeded } from './split-across-days';

type Created = SuccessEnvelope<CampaignCreatedDto>;

/**
 * POST /api/v1/campaigns: checks the template and the number's capacity (holding what the first part needs, so
 * two concurrent creates cannot both take the last slots), then stores the list as received and the campaign
 * (or its parts) in one transaction and answers 202 `preparing`. The recipients are written in the background.
 */
export async function createCampaign(
  deps: CampaignDeps,
  tenantId: number,
  request: CreateCampaignRequest,
  rawBody: string,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<Created>> {
  return deps.idempotency.run<Created>(tenantId, idempotencyKey, request, async (record) => {
    const scheduledAt = futureScheduledAt(request.scheduled_at, request.timezone);
    const requested = request.recipients.length;
    const firstId = newUlid();
    const release = () =>
      deps.messaging.release(tenantId, request.channel_account_id, firstId).catch((err: unknown) =>
        deps.logger.warn('could not release a capacity hold', {
          campaign_id: firstId,
          error: (err as Error).message,
        }),
      );
    let held = 0;
    try {
      const answer = await deps.dataSource.transaction(async (tx) => {
        const uploadId = newUlid();
        // Three independent steps at once: the list is written while messaging checks the template and holds
        // the capacity. A refusal rolls the list back and gives the hold back.
        const [stored, template, hold] = await Promise.allSettled([
          deps.campaigns.insertUpload(tx, uploadId, tenantId, rawBody),
          checkCampaignTemplate(deps, tenantId, request),
          deps.messaging.reserve(
            tenantId,
            request.channel_account_id,
            firstId,
            requested,
            request.split_across_days,
          ),
        ]);
        if (hold.status === 'fulfilled') held = hold.value.granted;
        if (template.status === 'rejected') throw template.reason;
        if (hold.status === 'rejected') throw hold.reason;
        if (stored.status === 'rejected') throw stored.reason;
        const checked = template.value;
        const { granted, capacity } = hold.value;
        if (granted < requested && !request.split_across_days) throw tierLimitExceeded(capacity, requested);
        const sizes = partSizes(requested, granted, capacity.daily_limit);
        const split = sizes.length > 1;
        const groupId = split ? newUlid() : null;
        const baseName = request.campaign_name ?? (split ? request.template_name : null);
        const now = Date.now();
        const parts: Campaign[] = [];
        let offset = 0;
        for (const [index, size] of sizes.entries()) {
          const n = index + 1;
          parts.push(
            await deps.campaigns.insert(tx, {
              id: n === 1 ? firstId : newUlid(),
              tenantId,
              channelAccountId: request.channel_account_id,
              name: split ? `${baseName} (${n}/${sizes.length})` : baseName,
              status: 'preparing',
              templateName: checked.template.name,
              templateLanguage: checked.template.language,
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
              uploadId,
              uploadOffset: offset,
            }),
          );
          offset += size;
        }
        const body = ok(toCreatedDto(parts));
        await record(tx, 202, body);
        return { body, uploadId };
      });
      deps.wakePreparer(answer.uploadId);
      return { status: 202, body: answer.body };
    } catch (err) {
      if (held > 0) await release();
      throw err;
    }
  });
}
