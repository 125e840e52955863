import type { SendRequestedItem } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { campaignEvent } from '../emit-event';
import type { Campaign, RecipientCounts } from '../ports/campaigns.port';
import type { RecipientFailure } from '../ports/recipients.port';
import type { CampaignTx } from '../ports/unit-of-work.port';
import { releaseCapacityHold } from '../release-capacity-hold';
import { sendCommands, sendOf } from './send-command';

export type StepDeps = Pick<
  CampaignDeps,
  'config' | 'logger' | 'unitOfWork' | 'messaging' | 'metrics' | 'wakeDispatcher'
>;

/** What messaging answered for a step, asked outside any transaction. */
export type MessagingAnswer =
  /** Nothing was asked: no capacity check was due and no recipient is left to hand over. */
  | { kind: 'none' }
  /** A campaign due later (a split part pulled forward) found no capacity: it keeps waiting. */
  | { kind: 'full' }
  /** Capacity held for the recipients left. */
  | { kind: 'granted'; granted: number }
  /** The sending account is no longer active. */
  | { kind: 'no-account' };

/** Work for after the step's transaction has committed: giving capacity back to messaging (never throws). */
export type AfterCommit = Array<() => Promise<void>>;

const OPTED_OUT_ERROR = 'RECIPIENT_OPTED_OUT: the recipient opted out before the campaign reached them';
const NO_ACCOUNT_ERROR = 'NO_ACTIVE_ACCOUNT: the sending account is no longer active';

/** Whether a campaign's step must ask messaging before it can be settled. */
export function stepNeedsMessaging(campaign: Campaign, counts: RecipientCounts): boolean {
  return isEarly(campaign) || counts.unrequested > 0;
}

/** A pending or scheduled campaign whose start time has not come (a later split part, pulled forward). */
export function isEarly(campaign: Campaign): boolean {
  return (
    (campaign.status === 'pending' || campaign.status === 'scheduled') &&
    campaign.scheduledAt !== null &&
    campaign.scheduledAt.getTime() > Date.now()
  );
}

async function finish(
  deps: StepDeps,
  tx: CampaignTx,
  campaign: Campaign,
  counts: RecipientCounts,
  status: 'completed' | 'failed',
  afterCommit: AfterCommit,
  failureReason?: string,
): Promise<void> {
  await tx.campaigns.setStatus(campaign.id, status, { finished: true, failureReason });
  await tx.outbox.enqueue([campaignEvent('campaign.completed', { ...campaign, status }, counts)]);
  afterCommit.push(() => releaseCapacityHold(deps, campaign));
}

/**
 * Hands the next recipients to messaging: opted-out ones and ones whose values do not fit fail instead. Returns
 * how many recipients it took.
 */
async function requestSends(
  deps: StepDeps,
  tx: CampaignTx,
  campaign: Campaign,
  room: number,
): Promise<number> {
  const batch = await tx.recipients.takeUnrequested(campaign.id, campaign.tenantId, room);
  const failures: RecipientFailure[] = [];
  const sends: SendRequestedItem[] = [];
  const requested: string[] = [];
  for (const recipient of batch) {
    const send = recipient.optedOut ? { error: OPTED_OUT_ERROR } : sendOf(campaign, recipient);
    if ('error' in send) failures.push({ id: recipient.id, errorMessage: send.error });
    else {
      sends.push(send);
      requested.push(recipient.id);
    }
  }
  await tx.recipients.failMany(failures);
  await tx.recipients.markRequested(requested);
  await tx.outbox.enqueue(sendCommands(campaign.tenantId, sends, deps.config.SEND_COMMAND_SIZE));
  deps.metrics.recipients.inc({ status: 'requested' }, sends.length);
  if (failures.length > 0) deps.metrics.recipients.inc({ status: 'failed' }, failures.length);
  return batch.length;
}

/**
 * Settles one step of one campaign under its row lock, with what messaging answered: start it when due (a
 * later split part early only when capacity is there), finish it when every recipient is answered, otherwise
 * hand messaging the next recipients that fit the held capacity, or mark it throttled until capacity frees.
 * Returns true when the step handed over a whole batch and more would fit now: the next step need not wait.
 */
export async function settleStep(
  deps: StepDeps,
  tx: CampaignTx,
  campaign: Campaign,
  counts: RecipientCounts,
  answer: MessagingAnswer,
  afterCommit: AfterCommit,
): Promise<boolean> {
  const recheckAt = new Date(Date.now() + deps.config.THROTTLE_RECHECK_MS);
  if (campaign.status === 'pending' || campaign.status === 'scheduled') {
    if (answer.kind === 'full') {
      await tx.campaigns.setStatus(campaign.id, campaign.status, { nextCheckAt: recheckAt });
      return false;
    }
    campaign = { ...campaign, status: 'processing' };
    await tx.campaigns.setStatus(campaign.id, 'processing', { started: true });
    await tx.outbox.enqueue([campaignEvent('campaign.started', campaign, counts)]);
  }
  if (counts.unrequested === 0) {
    if (counts.inFlight === 0) await finish(deps, tx, campaign, counts, 'completed', afterCommit);
    return false;
  }
  if (answer.kind === 'no-account') {
    await tx.recipients.failUnrequested(campaign.id, NO_ACCOUNT_ERROR);
    const after = { ...counts, failed: counts.failed + counts.unrequested, unrequested: 0 };
    await finish(deps, tx, campaign, after, 'failed', afterCommit, NO_ACCOUNT_ERROR);
    return false;
  }
  if (answer.kind !== 'granted') return false;
  const fits = answer.granted - counts.inFlight;
  if (fits <= 0) {
    await tx.campaigns.setStatus(campaign.id, 'throttled', { nextCheckAt: recheckAt });
    return false;
  }
  const { DISPATCH_MAX_IN_FLIGHT, DISPATCH_BATCH_SIZE } = deps.config;
  const room = Math.min(fits, DISPATCH_MAX_IN_FLIGHT - counts.inFlight, DISPATCH_BATCH_SIZE);
  if (campaign.status === 'throttled') await tx.campaigns.setStatus(campaign.id, 'processing');
  if (room <= 0) return false;
  const taken = await requestSends(deps, tx, campaign, room);
  // Cut by the batch size only (capacity and the in-flight bound leave more room): a large campaign fills its
  // in-flight bound in a few back-to-back steps instead of one batch per dispatch interval.
  return (
    taken === DISPATCH_BATCH_SIZE &&
    counts.unrequested > taken &&
    room < fits &&
    room < DISPATCH_MAX_IN_FLIGHT - counts.inFlight
  );
}
