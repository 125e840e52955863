import {
  optOutIntent,
  type MarketingPreferenceEvent,
  type MessageReceivedEvent,
  type OptOutSource,
} from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { optOutChangedEvent } from '../emit-event';
import { changeOptOut, recordChange, syncMessagingCopy, type OptOutDeps } from './record-opt-out-change';

type CustomerOptOutDeps = OptOutDeps & Pick<CampaignDeps, 'optOuts'>;

/**
 * A customer's STOP / UNSUBSCRIBE (typed, or the template's quick-reply button, whose text arrives as the
 * message text) adds an opt-out; START / SUBSCRIBE removes it. Anything else, and a repeat, changes nothing.
 */
export async function applyInboundKeyword(
  deps: CustomerOptOutDeps,
  event: MessageReceivedEvent,
): Promise<void> {
  const intent = optOutIntent(event.text);
  if (intent === null) return;
  await applyCustomerChoice(deps, event.tenant_id, event.from, intent === 'opt_out', 'keyword');
}

/**
 * A customer stopped marketing in WhatsApp (the upstream refused a send with 131050, or its `user_preferences`
 * webhook said `stop`): an opt-out with source `marketing_stop`; `resume` lifts the customer's opt-out.
 */
export async function applyMarketingPreference(
  deps: CustomerOptOutDeps,
  event: MarketingPreferenceEvent,
): Promise<void> {
  await applyCustomerChoice(deps, event.tenant_id, event.phone, event.value === 'stop', 'marketing_stop');
}

/**
 * One answer to "may this customer get marketing?", whoever asked: an opt-out is told to messaging's copy before
 * it commits, so from the moment the opt-out list shows it a MARKETING send is refused (told after the commit,
 * the list could show it a moment before messaging knew). Told first, a failure errs toward not sending: an
 * opt-out whose commit fails is redelivered and committed then, and a repeat tells messaging what it already
 * holds. Lifting one is committed first and told after, for the same reason. Opt-outs are kept by phone: a
 * customer known by user id only cannot be on the list yet (nor get a campaign, whose recipients are phones).
 */
async function applyCustomerChoice(
  deps: CustomerOptOutDeps,
  tenantId: number,
  phone: string | null,
  optOut: boolean,
  source: OptOutSource,
): Promise<void> {
  if (!phone) return;
  if (optOut) {
    const change = { tenantId, phone, optedOut: true, version: await deps.optOuts.nextVersion() };
    await syncMessagingCopy(deps, change);
    await deps.unitOfWork.run(async (tx) => {
      if ((await tx.optOuts.add(tenantId, phone, source)) === undefined) return;
      await tx.outbox.enqueue([optOutChangedEvent(change, source)]);
    });
    return;
  }
  await changeOptOut(deps, async (tx) => {
    const removed = await tx.optOuts.remove(tenantId, phone);
    return {
      change: removed ? await recordChange(tx, { tenantId, phone, optedOut: false }, source) : null,
    };
  });
}
