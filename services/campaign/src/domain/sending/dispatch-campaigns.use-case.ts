import {
  buildSendComponents,
  DOMAIN_EVENTS,
  expectedParameters,
  mergeTemplateValues,
  type SendRequestedCommand,
} from '@bm/contracts';
import { AppError, enqueueEvents, newUlid, type OutboxEvent } from '@bm/platform';
import type { EntityManager } from 'typeorm';
import type { Campaign, RecipientCounts } from '../../data-access/campaign.repository';
import { CAMPAIGN_SCHEMA } from '../../data-access/data-source';
import type { Recipient } from '../../data-access/recipient.repository';
import type { CampaignDeps } from '../campaign-deps';
import { emitCampaignEvent } from '../emit-event';

/** How messaging knows a recipient's send: the recipient id, and the attempt after a retry. */
export function campaignRecipientIdOf(recipientId: string, attempt: number): string {
  return attempt === 0 ? recipientId : `${recipientId}-${attempt}`;
}

export function parseCampaignRecipientId(value: string): { recipientId: string; attempt: number } | null {
  const match = /^(\d{1,18})(?:-(\d{1,9}))?$/.exec(value);
  return match ? { recipientId: match[1], attempt: match[2] ? Number(match[2]) : 0 } : null;
}

const OPTED_OUT_ERROR = 'RECIPIENT_OPTED_OUT: the recipient opted out before the campaign reached them';

/** The send command of one recipient, or the reason it cannot be sent. */
function sendCommandOf(campaign: Campaign, recipient: Recipient): OutboxEvent | { error: string } {
  const spec = expectedParameters(campaign.templateComponents);
  const values = mergeTemplateValues(campaign.templateParams, recipient.variables ?? {});
  if (values === null || values.length !== spec.textPlaceholders) {
    return {
      error:
        `TEMPLATE_PARAMETER_MISMATCH: the template takes ${spec.textPlaceholders} values, ` +
        `template_params and variables give ${values === null ? 'a gap in' : values.length}`,
    };
  }
  const eventId = newUlid();
  const campaignRecipientId = campaignRecipientIdOf(recipient.id, recipient.attempt);
  const payload: SendRequestedCommand = {
    event_id: eventId,
    tenant_id: campaign.tenantId,
    occurred_at: new Date().toISOString(),
    campaign_id: campaign.id,
    campaign_recipient_id: campaignRecipientId,
    channel_account_id: campaign.channelAccountId,
    phone: recipient.phone,
    template_name: campaign.templateName,
    template_language: campaign.templateLanguage,
    components: buildSendComponents(spec, values, campaign.headerMedia ?? undefined),
  };
  // The id is stable per recipient attempt: a command published twice is one send (messaging dedupes anyway).
  return {
    routingKey: DOMAIN_EVENTS.messagingSendRequested,
    messageId: `send-${campaignRecipientId}`,
    payload,
  };
}

type AfterCommit = Array<() => Promise<unknown>>;

async function finish(
  deps: CampaignDeps,
  tx: EntityManager,
  campaign: Campaign,
  counts: RecipientCounts,
  status: 'completed' | 'failed',
  afterCommit: AfterCommit,
  failureReason?: string,
): Promise<void> {
  await deps.campaigns.setStatus(tx, campaign.id, status, { finished: true, failureReason });
  await emitCampaignEvent(tx, 'campaign.completed', { ...campaign, status }, counts);
  afterCommit.push(() => deps.messaging.release(campaign.tenantId, campaign.channelAccountId, campaign.id));
}

/** Hands the next recipients to messaging: opted-out ones and ones whose values do not fit fail instead. */
async function requestSends(
  deps: CampaignDeps,
  tx: EntityManager,
  campaign: Campaign,
  room: number,
): Promise<void> {
  const batch = await deps.recipients.takeUnrequested(tx, campaign.id, campaign.tenantId, room);
  const failures: Array<{ id: string; errorMessage: string }> = [];
  const commands: OutboxEvent[] = [];
  const requested: string[] = [];
  for (const recipient of batch) {
    if (recipient.optedOut) {
      failures.push({ id: recipient.id, errorMessage: OPTED_OUT_ERROR });
      continue;
    }
    const command = sendCommandOf(campaign, recipient);
    if ('error' in command) failures.push({ id: recipient.id, errorMessage: command.error });
    else {
      commands.push(command);
      requested.push(recipient.id);
    }
  }
  await deps.recipients.failMany(tx, failures);
  await deps.recipients.markRequested(tx, requested);
  await enqueueEvents(tx, CAMPAIGN_SCHEMA, commands);
  deps.metrics.recipients.inc({ status: 'requested' }, commands.length);
  if (failures.length > 0) deps.metrics.recipients.inc({ status: 'failed' }, failures.length);
}

/**
 * One step of one campaign, under its row lock: start it when due (a later split part early only when
 * capacity is there), finish it when every recipient is answered, otherwise hold capacity for what is left
 * and hand messaging the next recipients that fit, or mark it throttled until capacity frees.
 */
async function step(
  deps: CampaignDeps,
  tx: EntityManager,
  campaign: Campaign,
  afterCommit: AfterCommit,
): Promise<void> {
  const { config, messaging } = deps;
  const counts = await deps.campaigns.counts(tx, campaign.id);
  const recheckAt = new Date(Date.now() + config.THROTTLE_RECHECK_MS);
  if (campaign.status === 'pending' || campaign.status === 'scheduled') {
    const early = campaign.scheduledAt !== null && campaign.scheduledAt.getTime() > Date.now();
    if (early) {
      const capacity = await messaging.capacity(campaign.tenantId, campaign.channelAccountId);
      if (capacity.remaining !== null && capacity.remaining <= 0) {
        await deps.campaigns.setStatus(tx, campaign.id, campaign.status, { nextCheckAt: recheckAt });
        return;
      }
    }
    campaign = { ...campaign, status: 'processing' };
    await deps.campaigns.setStatus(tx, campaign.id, 'processing', { started: true });
    await emitCampaignEvent(tx, 'campaign.started', campaign, counts);
  }
  if (counts.unrequested === 0) {
    if (counts.inFlight === 0) await finish(deps, tx, campaign, counts, 'completed', afterCommit);
    return;
  }
  let granted: number;
  try {
    ({ granted } = await messaging.reserve(
      campaign.tenantId,
      campaign.channelAccountId,
      campaign.id,
      counts.unrequested + counts.inFlight,
      true,
    ));
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'NO_ACTIVE_ACCOUNT') throw err;
    const reason = 'NO_ACTIVE_ACCOUNT: the sending account is no longer active';
    await deps.recipients.failUnrequested(tx, campaign.id, reason);
    const after = { ...counts, failed: counts.failed + counts.unrequested, unrequested: 0 };
    await finish(deps, tx, campaign, after, 'failed', afterCommit, reason);
    return;
  }
  const fits = granted - counts.inFlight;
  if (fits <= 0) {
    await deps.campaigns.setStatus(tx, campaign.id, 'throttled', { nextCheckAt: recheckAt });
    return;
  }
  const room = Math.min(fits, config.DISPATCH_MAX_IN_FLIGHT - counts.inFlight, config.DISPATCH_BATCH_SIZE);
  if (campaign.status === 'throttled') await deps.campaigns.setStatus(tx, campaign.id, 'processing');
  if (room > 0) await requestSends(deps, tx, campaign, room);
}

/**
 * One dispatcher pass: each campaign with work to do gets one step, in its own transaction, taken with SKIP
 * LOCKED so replicas share the work and never step the same campaign at once. Returns how many were stepped.
 */
export async function dispatchCampaigns(deps: CampaignDeps): Promise<number> {
  const seen: string[] = [];
  for (;;) {
    const afterCommit: AfterCommit = [];
    const claimed = seen.length;
    let stepped: boolean;
    try {
      stepped = await deps.dataSource.transaction(async (tx) => {
        const [campaign] = await deps.campaigns.claimDue(tx, 1, seen);
        if (!campaign) return false;
        seen.push(campaign.id);
        await step(deps, tx, campaign, afterCommit);
        return true;
      });
    } catch (err) {
      // Nothing claimed: the database itself failed, and the pass ends. A campaign whose step failed is left for
      // the next pass while the others due go on (it stays in `seen`, so this pass does not take it again).
      if (seen.length === claimed) throw err;
      deps.logger.warn('campaign step failed; the next pass tries it again', {
        campaign_id: seen[seen.length - 1],
        error: (err as Error).message,
      });
      continue;
    }
    for (const action of afterCommit) {
      await action().catch((err: unknown) =>
        deps.logger.warn('campaign follow-up failed', { error: (err as Error).message }),
      );
    }
    if (!stepped) return seen.length;
  }
}
