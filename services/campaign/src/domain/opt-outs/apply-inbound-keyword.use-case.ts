import { optOutIntent, type MessageReceivedEvent } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { optOutChangedEvent } from '../emit-event';
import { changeOptOut, recordChange, syncMessagingCopy, type OptOutDeps } from './record-opt-out-change';

/**
 * A customer's STOP / UNSUBSCRIBE (typed, or the template's quick-reply button, whose text arrives as the
 * message text) adds an opt-out; START / SUBSCRIBE removes it. Anything else, and a repeat, changes nothing.
 *
 * A STOP is told to messaging's copy before it commits, so from the moment the opt-out list shows it a MARKETING
 * send is refused (told after the commit, the list could show it a moment before messaging knew). Told first, a
 * failure errs toward not sending: a STOP whose commit fails is redelivered and committed then, and a repeat STOP
 * tells messaging what it already holds. A START is committed first and told after, for the same reason.
 */
export async function applyInboundKeyword(
  deps: OptOutDeps & Pick<CampaignDeps, 'optOuts'>,
  event: MessageReceivedEvent,
): Promise<void> {
  const intent = optOutIntent(event.text);
  // Opt-outs are kept by phone: a customer known by user id only cannot be on the list yet (nor get a campaign,
  // whose recipients are phones).
  const { tenant_id: tenantId, from: phone } = event;
  if (intent === null || !phone) return;
  if (intent === 'opt_out') {
    const change = { tenantId, phone, optedOut: true, version: await deps.optOuts.nextVersion() };
    await syncMessagingCopy(deps, change);
    await deps.unitOfWork.run(async (tx) => {
      if ((await tx.optOuts.add(tenantId, phone, 'keyword')) === undefined) return;
      await tx.outbox.enqueue([optOutChangedEvent(change, 'keyword')]);
    });
    return;
  }
  await changeOptOut(deps, async (tx) => {
    const removed = await tx.optOuts.remove(tenantId, phone);
    return {
      change: removed ? await recordChange(tx, { tenantId, phone, optedOut: false }, 'keyword') : null,
    };
  });
}
