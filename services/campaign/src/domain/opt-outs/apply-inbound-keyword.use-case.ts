import {
  linkOf,
  optOutIntent,
  type CustomerAddressChangedEvent,
  type CustomerLink,
  type MarketingPreferenceEvent,
  type MessageReceivedEvent,
  type OptOutSource,
} from '@bm/contracts';
import type { ChoiceTime, OptOutChange } from '../ports/opt-outs.port';
import { optOutChangedEvent } from '../emit-event';
import {
  changeOptOut,
  recordChange,
  setCustomerOptOut,
  syncMessagingCopy,
  type OptOutDeps,
} from './record-opt-out-change';

type CustomerOptOutDeps = OptOutDeps;

/** A choice's time from the fields that tell it; an older producer's event, without them, is dated `otherwise`. */
export function choiceTimeOf(
  chosenAt: string | undefined,
  receivedAt: string | undefined,
  otherwise: string,
): ChoiceTime {
  return {
    chosenAt: new Date(chosenAt ?? otherwise),
    receivedAt: new Date(receivedAt ?? chosenAt ?? otherwise),
  };
}

/**
 * A customer's message. One that names both their phone and their user id links the two (one customer from then
 * on). A STOP / UNSUBSCRIBE (typed, or the template's quick-reply button, whose text arrives as the message text)
 * adds an opt-out; START / SUBSCRIBE removes it. Anything else, and a repeat, changes nothing.
 */
export async function applyInboundKeyword(
  deps: CustomerOptOutDeps,
  event: MessageReceivedEvent,
): Promise<void> {
  const link = linkOf(event);
  if (link) await linkCustomer(deps, event.tenant_id, link);
  const intent = optOutIntent(event.text);
  const address = link?.phone ?? event.from ?? event.from_user_id;
  if (intent === null || !address) return;
  const at = choiceTimeOf(event.written_at, event.received_at, event.occurred_at);
  await applyCustomerChoice(deps, event.tenant_id, { address, at }, intent === 'opt_out', 'keyword');
}

/**
 * A customer stopped marketing in WhatsApp (the upstream refused a send with 131050, or its `user_preferences`
 * webhook said `stop`): an opt-out with source `marketing_stop`; `resume` lifts the customer's opt-out.
 */
export async function applyMarketingPreference(
  deps: CustomerOptOutDeps,
  event: MarketingPreferenceEvent,
): Promise<void> {
  const address = event.phone ?? event.user_id;
  if (!address) return;
  const at = choiceTimeOf(event.chosen_at, event.received_at, event.occurred_at);
  await applyCustomerChoice(deps, event.tenant_id, { address, at }, event.value === 'stop', 'marketing_stop');
}

/**
 * A customer's stop told by webhook-ingress before it answers the upstream's webhook (a STOP keyword, or a
 * `user_preferences` stop): applied at once, so from that answer on every send is checked against it. The same
 * stop coming again through the broker is no later than itself and changes nothing.
 */
export function applyCustomerStop(
  deps: CustomerOptOutDeps,
  tenantId: number,
  stop: { address: string; at: ChoiceTime },
  source: OptOutSource,
): Promise<void> {
  return applyCustomerChoice(deps, tenantId, stop, true, source);
}

/**
 * Links a customer's phone and user id; when one of them was opted out, the other is too (with the same source),
 * so every list and check that reads one address sees the customer's choice.
 */
async function linkCustomer(deps: CustomerOptOutDeps, tenantId: number, link: CustomerLink): Promise<void> {
  await changeOptOut(deps, async (tx) => {
    // A link already known was merged when it was made (and every opt-out since covers both): nothing to do.
    if (!(await tx.optOuts.link(tenantId, link))) return { changes: [] };
    const [byPhone, byUserId] = await Promise.all([
      tx.optOuts.find(tenantId, link.phone),
      tx.optOuts.find(tenantId, link.userId),
    ]);
    const entry = byPhone ?? byUserId;
    if (!entry || (byPhone && byUserId)) return { changes: [] };
    return { changes: await setCustomerOptOut(tx, tenantId, link.phone, true, entry.source) };
  });
}

/**
 * A customer changed number or user id (a system message messaging passed on): their opt-out moves to the new
 * address and their links follow; the old address, which may be someone else's next, is freed.
 */
export async function moveCustomer(
  deps: CustomerOptOutDeps,
  event: CustomerAddressChangedEvent,
): Promise<void> {
  const tenantId = event.tenant_id;
  await changeOptOut(deps, async (tx) => {
    const entry = await tx.optOuts.find(tenantId, event.previous);
    const changes: OptOutChange[] = [];
    if (entry && (await tx.optOuts.remove(tenantId, event.previous)))
      changes.push(
        await recordChange(tx, { tenantId, phone: event.previous, optedOut: false }, entry.source),
      );
    await tx.optOuts.forget(tenantId, event.previous);
    if (event.link) await tx.optOuts.link(tenantId, { phone: event.link.phone, userId: event.link.user_id });
    if (entry) changes.push(...(await setCustomerOptOut(tx, tenantId, event.current, true, entry.source)));
    return { changes };
  });
}

/**
 * One answer to "may this customer get marketing?", whoever asked. Only the customer's latest choice counts: one
 * made before the last applied (a copy arriving late, by the other road or after a concurrent consumer's) changes
 * nothing. An opt-out is told to messaging's copy before it commits, so from the moment the opt-out list shows it
 * a MARKETING send is refused (told after the commit, the list could show it a moment before messaging knew).
 * Told first, a failure errs toward not sending: an opt-out whose commit fails is redelivered and committed then,
 * and a repeat tells messaging what it already holds. Lifting one is committed first and told after, for the same
 * reason. Every address linked to the customer's goes with it.
 */
async function applyCustomerChoice(
  deps: CustomerOptOutDeps,
  tenantId: number,
  choice: { address: string; at: ChoiceTime },
  optOut: boolean,
  source: OptOutSource,
): Promise<void> {
  const { address, at } = choice;
  if (!optOut) {
    await changeOptOut(deps, async (tx) => ({
      changes: (await tx.optOuts.recordChoice(tenantId, address, at))
        ? await setCustomerOptOut(tx, tenantId, address, false, source)
        : [],
    }));
    return;
  }
  // The choice's row stays locked while messaging is told: a later choice waits, and its version comes after.
  await deps.unitOfWork.run(async (tx) => {
    if (!(await tx.optOuts.recordChoice(tenantId, address, at))) return;
    for (const phone of [address, ...(await tx.optOuts.linkedTo(tenantId, address))]) {
      const change = { tenantId, phone, optedOut: true, version: await tx.optOuts.nextVersion() };
      await syncMessagingCopy(deps, change);
      if ((await tx.optOuts.add(tenantId, phone, source)) === undefined) continue;
      await tx.outbox.enqueue([optOutChangedEvent(change, source)]);
    }
  });
}
