import { optOutIntent, type MessageReceivedEvent } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { recordChange, syncMessagingCopy } from './record-opt-out-change';

/**
 * A customer's STOP / UNSUBSCRIBE (typed, or the template's quick-reply button, whose text arrives as the
 * message text) adds an opt-out; START / SUBSCRIBE removes it. Anything else, and a repeat, changes nothing.
 */
export async function applyInboundKeyword(deps: CampaignDeps, event: MessageReceivedEvent): Promise<void> {
  const intent = optOutIntent(event.text);
  if (intent === null) return;
  const optedOut = intent === 'opt_out';
  const { tenant_id: tenantId, from: phone } = event;
  const change = await deps.dataSource.transaction(async (tx) => {
    const done = optedOut
      ? (await deps.optOuts.add(tx, tenantId, phone, 'keyword')) !== undefined
      : await deps.optOuts.remove(tx, tenantId, phone);
    return done ? recordChange(deps, tx, { tenantId, phone, optedOut }, 'keyword') : null;
  });
  if (change) await syncMessagingCopy(deps, change);
}
