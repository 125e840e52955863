import {
  INVALID_PHONE_RECIPIENT_ERROR,
  normalizePhone,
  type CampaignRecipientInput,
  type CampaignStatus,
} from '@bm/contracts';
import type { Campaign } from '../data-access/campaign.repository';
import type { NewRecipient } from '../data-access/recipient.repository';
import type { CampaignDeps } from './campaign-deps';
import { emitCampaignEvent } from './emit-event';

/**
 * The recipients of each part, in list order: phones normalized (an invalid one kept as submitted, to fail),
 * a phone seen earlier in the list (in any part) dropped.
 */
function recipientsOfParts(
  parts: readonly Campaign[],
  list: readonly CampaignRecipientInput[],
): NewRecipient[][] {
  const seen = new Set<string>();
  return parts.map((part) => {
    const rows: NewRecipient[] = [];
    const end = Math.min(list.length, part.uploadOffset + part.requestedCount);
    for (let i = part.uploadOffset; i < end; i += 1) {
      const item = list[i];
      const normalized = normalizePhone(item.phone);
      const phone = normalized ?? item.phone;
      if (seen.has(phone)) continue;
      seen.add(phone);
      const variables = item.variables && Object.keys(item.variables).length > 0 ? item.variables : null;
      rows.push({ phone, name: item.name || null, variables, invalid: normalized === null });
    }
    return rows;
  });
}

function statusAfterPreparation(part: Campaign): CampaignStatus {
  if ((part.partNumber ?? 1) > 1) return 'scheduled';
  return part.scheduledAt && part.scheduledAt.getTime() > Date.now() ? 'scheduled' : 'pending';
}

/**
 * Writes the recipients of one stored list (one campaign, or every part of a split) and makes the campaigns
 * ready, in one transaction: duplicates dropped, invalid phones as failed recipients, opted-out phones removed,
 * `total_count` final, `campaign.created` emitted, the stored list deleted. A replica that crashes half-way
 * leaves the list for another to redo; the row lock keeps two replicas off the same list.
 * Returns false when there was nothing (left) to prepare.
 */
export async function prepareUpload(deps: CampaignDeps, uploadId?: string): Promise<boolean> {
  const started = Date.now();
  return deps.dataSource.transaction(async (tx) => {
    const upload = await deps.campaigns.lockUpload(tx, uploadId);
    if (!upload) return false;
    const parts = await deps.campaigns.lockUploadCampaigns(tx, upload.id);
    if (parts.length > 0) {
      const { recipients } = JSON.parse(upload.body) as { recipients: CampaignRecipientInput[] };
      const perPart = recipientsOfParts(parts, recipients);
      const valid = perPart
        .flat()
        .filter((r) => !r.invalid)
        .map((r) => r.phone);
      const optedOut = await deps.optOuts.optedOutAmong(tx, parts[0].tenantId, valid);
      for (const [index, part] of parts.entries()) {
        const rows = perPart[index].filter((r) => r.invalid || !optedOut.has(r.phone));
        await deps.recipients.insertMany(tx, part.id, rows, INVALID_PHONE_RECIPIENT_ERROR);
        const ready = await deps.campaigns.finishPreparation(
          tx,
          part.id,
          statusAfterPreparation(part),
          rows.length,
        );
        const failed = rows.filter((r) => r.invalid).length;
        if (failed > 0) deps.metrics.recipients.inc({ status: 'failed' }, failed);
        await emitCampaignEvent(tx, 'campaign.created', ready, { sent: 0, failed });
      }
    }
    await deps.campaigns.deleteUpload(tx, upload.id);
    deps.logger.info('campaign list prepared', {
      campaign_ids: parts.map((p) => p.id),
      recipients: parts.reduce((sum, p) => sum + p.requestedCount, 0),
      duration_ms: Date.now() - started,
    });
    return true;
  });
}

/** Prepares every list left waiting (by a crashed replica, or while the database was away). */
export async function prepareWaitingUploads(deps: CampaignDeps): Promise<number> {
  let prepared = 0;
  while (await prepareUpload(deps)) prepared += 1;
  if (prepared > 0) deps.wakeDispatcher();
  return prepared;
}
