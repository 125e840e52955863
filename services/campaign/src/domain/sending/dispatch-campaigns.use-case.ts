import { AppError } from '@bm/platform';
import type { Campaign, RecipientCounts } from '../ports/campaigns.port';
import { releaseCapacityHold } from '../release-capacity-hold';
import {
  isEarly,
  settleStep,
  stepNeedsMessaging,
  type AfterCommit,
  type MessagingAnswer,
  type StepDeps,
} from './campaign-step';

/** A campaign claimed for a step that must ask messaging first, kept from other replicas until `until`. */
interface Leased {
  campaign: Campaign;
  counts: RecipientCounts;
  until: Date;
}

/** Asks messaging what the step needs: whether an early part may start, and capacity for what is left. */
async function askMessaging(deps: StepDeps, { campaign, counts }: Leased): Promise<MessagingAnswer> {
  const { tenantId, channelAccountId, id } = campaign;
  if (isEarly(campaign)) {
    const capacity = await deps.messaging.capacity(tenantId, channelAccountId);
    if (capacity.remaining !== null && capacity.remaining <= 0) return { kind: 'full' };
  }
  if (counts.unrequested === 0) return { kind: 'none' };
  try {
    const total = counts.unrequested + counts.inFlight;
    const { granted } = await deps.messaging.reserve(tenantId, channelAccountId, id, total, true);
    return { kind: 'granted', granted };
  } catch (err) {
    if (err instanceof AppError && err.code === 'NO_ACTIVE_ACCOUNT') return { kind: 'no-account' };
    throw err;
  }
}

/**
 * One step of the next due campaign, never holding a transaction across a call to messaging: a short
 * transaction claims the campaign (SKIP LOCKED) and, when messaging must be asked, leases it to this replica;
 * messaging is asked; a second short transaction takes the campaign back (unless it changed meanwhile: paused,
 * cancelled, resumed) and settles the step. Returns false when no campaign was due.
 */
async function stepNext(deps: StepDeps, seen: string[]): Promise<boolean> {
  const afterCommit: AfterCommit = [];
  // Long enough for both calls to messaging; a replica that dies holding it only delays the campaign this long.
  const until = new Date(Date.now() + 2 * deps.config.MESSAGING_TIMEOUT_MS + 1_000);
  const claim = await deps.unitOfWork.run(async (tx) => {
    const campaign = await tx.campaigns.claimDue(seen);
    if (!campaign) return undefined;
    seen.push(campaign.id);
    const counts = await tx.campaigns.counts(campaign.id);
    if (!stepNeedsMessaging(campaign, counts)) {
      await settleStep(deps, tx, campaign, counts, { kind: 'none' }, afterCommit);
      return null;
    }
    await tx.campaigns.lease(campaign.id, until);
    return { campaign, counts, until };
  });
  if (claim === undefined) return false;
  if (claim !== null) {
    let answer: MessagingAnswer;
    try {
      answer = await askMessaging(deps, claim);
    } catch (err) {
      // The next pass tries again rather than waiting out the lease.
      await deps.unitOfWork
        .run((tx) => tx.campaigns.reclaim(claim.campaign.id, until))
        .catch(() => undefined);
      throw err;
    }
    let more = false;
    const settled = await deps.unitOfWork.run(async (tx) => {
      const campaign = await tx.campaigns.reclaim(claim.campaign.id, until);
      if (campaign) more = await settleStep(deps, tx, campaign, claim.counts, answer, afterCommit);
      return campaign !== undefined;
    });
    // Another step of this campaign is due at once: a pass right after this one, not after the interval.
    if (more) deps.wakeDispatcher();
    // Paused or cancelled while messaging was asked: the hold taken meanwhile goes back (a resume takes anew).
    if (!settled && answer.kind === 'granted') {
      afterCommit.push(() => releaseCapacityHold(deps, claim.campaign));
    }
  }
  for (const action of afterCommit) await action();
  return true;
}

/**
 * One dispatcher pass: each campaign with work to do gets one step, so replicas share the work and never step
 * the same campaign at once. Returns how many were stepped.
 */
export async function dispatchCampaigns(deps: StepDeps): Promise<number> {
  const seen: string[] = [];
  for (;;) {
    const claimed = seen.length;
    try {
      if (!(await stepNext(deps, seen))) return seen.length;
    } catch (err) {
      // Nothing claimed: the database itself failed, and the pass ends. A campaign whose step failed is left for
      // the next pass while the others due go on (it stays in `seen`, so this pass does not take it again).
      if (seen.length === claimed) throw err;
      deps.logger.warn('campaign step failed; the next pass tries it again', {
        campaign_id: seen[seen.length - 1],
        error: (err as Error).message,
      });
    }
  }
}
