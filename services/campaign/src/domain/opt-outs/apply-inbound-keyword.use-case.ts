import { optOutIntent, type MessageReceivedEvent } from '@bm/contracts';
import { changeOptOut, recordChange, type OptOutDeps } from './record-opt-out-change';

/**
 * A customer's STOP / UNSUBSCRIBE (typed, or the template's quick-reply button, whose text arrives as the
 * message text) adds an opt-out; START / SUBSCRIBE removes it. Anything else, and a repeat, changes nothing.
 */
export async function applyInboundKeyword(deps: OptOutDeps, event: MessageReceivedEvent): Promise<void> {
  const intent = optOutIntent(event.text);
  if (intent === null) return;
  const optedOut = intent === 'opt_out';
  const { tenant_id: tenantId, from: phone } = event;
  await changeOptOut(deps, async (tx) => {
    const done = optedOut
      ? (await tx.optOuts.add(tenantId, phone, 'keyword')) !== undefined
      : await tx.optOuts.remove(tenantId, phone);
    return { change: done ? await recordChange(tx, { tenantId, phone, optedOut }, 'keyword') : null };
  });
}
