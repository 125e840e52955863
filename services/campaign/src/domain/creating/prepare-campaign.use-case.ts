import {
  INVALID_PHONE_RECIPIENT_ERROR,
  INVALID_TEXT_RECIPIENT_ERROR,
  normalizePhone,
  type CampaignRecipientInput,
  type CampaignStatus,
} from '@bm/contracts';
import { isStorableText, storableJson, storableText } from '@bm/platform';
import type { Campaign } from '../../data-access/campaign.repository';
import type { NewRecipient } from '../../data-access/recipient.repository';
import type { CampaignDeps } from '../campaign-deps';
import { emitCampaignEvent } from '../emit-event';

/** Recipients written per statement: the next chunk is normalized while the database writes this one. */
const CHUNK = 5_000;

/** Whether a recipient's name and variables (keys and values) can be stored. */
function storableRow(item: CampaignRecipientInput): boolean {
  if (item.name && !isStorableText(item.name)) return false;
  return Object.entries(item.variables ?? {}).every(([k, v]) => isStorableText(k) && isStorableText(v));
}

/**
 * Recipients `from` to `to` of the list: phones normalized (an invalid one kept as submitted, to fail), a phone
 * already `seen` earlier in the list (in any part) dropped. A row with an unpaired surrogate (the route lets
 * those through so that they fail alone) fails like an invalid phone, its text stored with U+FFFD in their place.
 */
function chunkOf(
  list: readonly CampaignRecipientInput[],
  from: number,
  to: number,
  seen: Set<string>,
): NewRecipient[] {
  const rows: NewRecipient[] = [];
  for (let i = from; i < to; i += 1) {
    const item = list[i];
    const normalized = normalizePhone(item.phone);
    const phone = normalized ?? storableText(item.phone);
    if (seen.has(phone)) continue;
    seen.add(phone);
    const variables = item.variables && Object.keys(item.variables).length > 0 ? item.variables : null;
    const name = item.name || null;
    const error =
      normalized === null
        ? INVALID_PHONE_RECIPIENT_ERROR
        : storableRow(item)
          ? null
          : INVALID_TEXT_RECIPIENT_ERROR;
    rows.push(
      error === null
        ? { phone, name, variables, error }
        : {
            phone,
            name: name && storableText(name),
            variables: variables && storableJson(variables).value,
            error,
          },
    );
  }
  return rows;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

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
export async function prepareUpload(deps: CampaignDeps, uploadId: string): Promise<boolean> {
  const started = Date.now();
  return deps.dataSource.transaction(async (tx) => {
    const upload = await deps.campaigns.lockUpload(tx, uploadId);
    if (!upload) return false;
    const parts = await deps.campaigns.lockUploadCampaigns(tx, upload.id);
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
          writes = writes.then(() => deps.recipients.insertMany(tx, part.id, rows));
          // A failed write fails the transaction below; until then it must not count as unhandled.
          writes.catch(() => undefined);
          await nextTurn();
        }
        written.set(part.id, counts);
      }
      await writes;
      const dropped = await deps.recipients.dropOptedOut(
        tx,
        parts[0].tenantId,
        parts.map((p) => p.id),
      );
      for (const part of parts) {
        const { rows, invalid } = written.get(part.id)!;
        const ready = await deps.campaigns.finishPreparation(
          tx,
          part.id,
          statusAfterPreparation(part),
          rows - (dropped.get(part.id) ?? 0),
        );
        if (invalid > 0) deps.metrics.recipients.inc({ status: 'failed' }, invalid);
        await emitCampaignEvent(tx, 'campaign.created', ready, { sent: 0, failed: invalid });
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

// Lists looked up at a time by the sweep.
const SWEEP_BATCH = 50;

/**
 * Prepares every list left waiting (by a crashed replica, or while the database was away), one by one: a list
 * that fails is logged and left for the next sweep while the lists after it go on.
 */
export async function prepareWaitingUploads(deps: CampaignDeps): Promise<number> {
  let prepared = 0;
  const tried: string[] = [];
  for (;;) {
    const ids = await deps.campaigns.waitingUploadIds(tried, SWEEP_BATCH);
    if (ids.length === 0) break;
    for (const id of ids) {
      tried.push(id);
      try {
        if (await prepareUpload(deps, id)) prepared += 1;
      } catch (err) {
        deps.logger.warn('campaign list not prepared; the next sweep tries it again', {
          upload_id: id,
          error: (err as Error).message,
        });
      }
    }
  }
  if (prepared > 0) deps.wakeDispatcher();
  return prepared;
}
