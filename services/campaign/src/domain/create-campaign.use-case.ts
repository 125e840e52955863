import {
  expectedParameters,
  ok,
  type CampaignCreatedDto,
  type CampaignPlanDto,
  type CreateCampaignRequest,
  type HeaderMediaInput,
  type MessagingTierLimitDetails,
  type SuccessEnvelope,
  type TemplateDto,
} from '@bm/contracts';
import { AppError, futureScheduledAt, newUlid, type IdempotentAnswer } from '@bm/platform';
import type { Campaign } from '../data-access/campaign.repository';
import type { Capacity } from '../data-access/messaging-client';
import type { CampaignDeps } from './campaign-deps';
import { toCreatedDto } from './campaign.dto';
import { optedOutAmong } from './list-campaigns.use-case';

type Created = SuccessEnvelope<CampaignCreatedDto>;

/** The template a campaign sends and the media its header needs, checked as a single send is. */
interface CheckedTemplate {
  template: TemplateDto;
  headerMedia: HeaderMediaInput | null;
  throughputPerSecond: number;
}

function validationError(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', 'The request is invalid', { errors: [{ field, message }] });
}

/**
 * Template checks before anything is written: messaging answers NO_ACTIVE_ACCOUNT, TEMPLATE_NOT_FOUND,
 * TEMPLATE_PAUSED or TEMPLATE_NOT_APPROVED; here the media header and, when no recipient brings its own
 * variables, the number of `template_params` (a recipient whose merged values do not fit fails alone later).
 */
async function checkTemplate(
  deps: CampaignDeps,
  tenantId: number,
  request: CreateCampaignRequest,
): Promise<CheckedTemplate> {
  const { template, throughput_per_second } = await deps.messaging.campaignTemplate(
    tenantId,
    request.channel_account_id,
    request.template_name,
    request.template_language,
  );
  const spec = expectedParameters(template.components);
  let headerMedia: HeaderMediaInput | null = null;
  if (spec.headerMedia) {
    if (request.header_media && request.header_media.type !== spec.headerMedia) {
      throw validationError(
        'header_media.type',
        `header_media.type must be ${spec.headerMedia} for this template`,
      );
    }
    headerMedia =
      request.header_media ??
      (template.header_sample_media_url
        ? { type: spec.headerMedia, link: template.header_sample_media_url }
        : null);
    if (!headerMedia) {
      throw new AppError('TEMPLATE_HEADER_MEDIA_REQUIRED', undefined, {
        header_format: template.header_format,
        header_sample_media_url: null,
      });
    }
  }
  const given = request.template_params?.length ?? 0;
  const perRecipient = request.recipients.some((r) => r.variables && Object.keys(r.variables).length > 0);
  if (given > spec.textPlaceholders || (!perRecipient && given !== spec.textPlaceholders)) {
    throw new AppError('TEMPLATE_PARAMETER_MISMATCH', undefined, {
      expected: spec.textPlaceholders,
      given,
      components: spec.components,
    });
  }
  return { template, headerMedia, throughputPerSecond: throughput_per_second };
}

/**
 * Part sizes of a list of `requested` recipients when `available` fit now: one part when all fit; else the
 * first part takes what fits now (a whole day's limit when nothing does: it waits, throttled) and each later
 * part a day's limit.
 */
export function partSizes(requested: number, available: number, dailyLimit: number | null): number[] {
  if (dailyLimit === null || requested <= available) return [requested];
  const sizes: number[] = [];
  let left = requested;
  let next = available > 0 ? available : dailyLimit;
  while (left > 0) {
    const size = Math.min(next, left);
    sizes.push(size);
    left -= size;
    next = dailyLimit;
  }
  return sizes;
}

function tierLimitExceeded(capacity: Capacity, requested: number): AppError {
  const details: MessagingTierLimitDetails = {
    daily_limit: capacity.daily_limit ?? 0,
    used_today: capacity.used_today,
    remaining: capacity.remaining ?? 0,
    requested,
  };
  return new AppError(
    'MESSAGING_TIER_LIMIT_EXCEEDED',
    `The campaign has ${requested} recipients and the number can open ${details.remaining} more conversations ` +
      'in the rolling 24 hours; set split_across_days to send it in daily parts',
    details as unknown as Record<string, unknown>,
  );
}

/** When part `n` (1-based) is planned to start: the first at `scheduledAt` (null: now), each later one a day on. */
function plannedStart(scheduledAt: Date | null, n: number, intervalMs: number, now: number): Date | null {
  if (n === 1) return scheduledAt;
  return new Date((scheduledAt?.getTime() ?? now) + (n - 1) * intervalMs);
}

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
          checkTemplate(deps, tenantId, request),
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

/** POST /api/v1/campaigns?dry_run=true: the same checks as a create, and the plan it would follow. */
export async function planCampaign(
  deps: CampaignDeps,
  tenantId: number,
  request: CreateCampaignRequest,
): Promise<CampaignPlanDto> {
  const scheduledAt = futureScheduledAt(request.scheduled_at, request.timezone);
  const checked = await checkTemplate(deps, tenantId, request);
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
