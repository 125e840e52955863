import type { CampaignRecipientInput, CampaignStatus } from '@bm/contracts';
import { MARKET_PREFIX_LENGTH } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { campaignEvent } from '../emit-event';
import type { Campaign, CostEstimate } from '../ports/campaigns.port';
import type { AddressPrefixCount } from '../ports/recipients.port';
import { estimateCost, pricedRecipientOf } from './estimate-cost';
import { CHUNK, chunkOf } from './recipient-rows';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function statusAfterPreparation(part: Campaign): CampaignStatus {
  if ((part.partNumber ?? 1) > 1) return 'scheduled';
  return part.scheduledAt && part.scheduledAt.getTime() > Date.now() ? 'scheduled' : 'pending';
}

/** A part's estimate from its recipients counted by the beginning of their address (null without a category). */
function estimateOf(
  deps: Pick<CampaignDeps, 'rateCard'>,
  part: Campaign,
  groups: readonly AddressPrefixCount[],
): CostEstimate | null {
  if (part.templateCategory === null) return null;
  const mine = groups.filter((g) => g.campaignId === part.id);
  return estimateCost(
    deps.rateCard,
    part.templateCategory,
    mine.map((g) => ({
      to: pricedRecipientOf({ phone: g.prefix, userId: g.byUserId ? g.prefix : null }),
      count: g.count,
    })),
  );
}

/**
 * Writes the recipients of one stored list (one campaign, or every part of a split) and makes the campaigns
 * ready, in one transaction: duplicates dropped, invalid phones as failed recipients, opted-out phones removed,
 * `total_count` final, the cost of the deliverable recipients estimated, `campaign.created` emitted, the stored
 * list deleted. A replica that crashes half-way leaves the list for another to redo; the row lock keeps two
 * replicas off the same list.
 * Returns false when there was nothing (left) to prepare.
 */
export async function prepareUpload(
  deps: Pick<CampaignDeps, 'unitOfWork' | 'metrics' | 'logger' | 'rateCard'>,
  uploadId: string,
): Promise<boolean> {
  const started = Date.now();
  return deps.unitOfWork.run(async (tx) => {
    const upload = await tx.uploads.lockUpload(uploadId);
    if (!upload) return false;
    const parts = await tx.uploads.lockUploadCampaigns(upload.id);
    if (parts.length > 0) {
      const { recipients } = JSON.parse(upload.body) as { recipients: CampaignRecipientInput[] };
      // Each chunk's write is chained after the previous one without waiting for it, so normalizing the next
      // chunk overlaps writing this one while the connection runs one statement at a time (pg deprecates handing
      // a client a query while another runs); opted-out phones are then removed in one statement.
      const seen = new Set<string>();
      let writes: Promise<unknown> = Promise.resolve();
      const written = new Map<string, { rows: number; invalid: number }>();
      for (const part of parts) {
        const end = Math.min(recipients.length, part.uploadOffset + part.requestedCount);
        const counts = { rows: 0, invalid: 0 };
        for (let from = part.uploadOffset; from < end; from += CHUNK) {
          const rows = chunkOf(recipients, from, Math.min(end, from + CHUNK), seen);
          counts.rows += rows.length;
          counts.invalid += rows.filter((r) => r.error !== null).length;
          writes = writes.then(() => tx.recipients.insertMany(part.id, rows));
          // A failed write fails the transaction below; until then it must not count as unhandled.
          writes.catch(() => undefined);
          await nextTurn();
        }
        written.set(part.id, counts);
      }
      await writes;
      const dropped = await tx.recipients.dropOptedOut(
        parts[0].tenantId,
        parts.map((p) => p.id),
      );
      const markets = await tx.recipients.countByAddressPrefix(
        parts.map((p) => p.id),
        MARKET_PREFIX_LENGTH,
      );
      for (const part of parts) {
        const { rows, invalid } = written.get(part.id)!;
        const ready = await tx.uploads.finishPreparation(
          part.id,
          statusAfterPreparation(part),
          rows - (dropped.get(part.id) ?? 0),
          estimateOf(deps, part, markets),
        );
        if (invalid > 0) deps.metrics.recipients.inc({ status: 'failed' }, invalid);
        await tx.outbox.enqueue([campaignEvent('campaign.created', ready, { sent: 0, failed: invalid })]);
      }
    }
    await tx.uploads.deleteUpload(upload.id);
    deps.logger.info('campaign list prepared', {
      campaign_ids: parts.map((p) => p.id),
      recipients: parts.reduce((sum, p) => sum + p.requestedCount, 0),
      duration_ms: Date.now() - started,
    });
    return true;
  });
}
