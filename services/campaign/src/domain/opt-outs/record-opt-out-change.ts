import type { OptOutSource } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { optOutChangedEvent } from '../emit-event';
import type { OptOutChange } from '../ports/opt-outs.port';
import type { CampaignTx } from '../ports/unit-of-work.port';

export type OptOutDeps = Pick<CampaignDeps, 'unitOfWork' | 'messaging' | 'logger'>;

/**
 * Records a change made in `tx`: its version, and the opt_out.changed event committed with it. The change is
 * returned for `syncMessagingCopy` once the unit of work has committed.
 */
export async function recordChange(
  tx: CampaignTx,
  change: Omit<OptOutChange, 'version'>,
  source: OptOutSource,
): Promise<OptOutChange> {
  const versioned = { ...change, version: await tx.optOuts.nextVersion() };
  await tx.outbox.enqueue([optOutChangedEvent(versioned, source)]);
  return versioned;
}

/**
 * Tells messaging of a committed change at once, so a MARKETING send right after it is checked against it. Best
 * effort: the opt_out.changed event committed with the change brings messaging's copy there in any case, and
 * the version keeps whichever arrives second from undoing a newer change.
 */
export async function syncMessagingCopy(
  deps: Pick<CampaignDeps, 'messaging' | 'logger'>,
  change: OptOutChange,
): Promise<void> {
  try {
    await deps.messaging.setOptOut(change);
  } catch (err) {
    deps.logger.warn('opt-out left to its event', {
      tenant_id: change.tenantId,
      error: (err as Error).message,
    });
  }
}

/** Runs opt-out changes in one unit of work, then tells messaging's copy of what changed (if anything). */
export async function changeOptOut<T extends { changes: readonly OptOutChange[] }>(
  deps: OptOutDeps,
  work: (tx: CampaignTx) => Promise<T>,
): Promise<T> {
  const result = await deps.unitOfWork.run(work);
  for (const change of result.changes) await syncMessagingCopy(deps, change);
  return result;
}

/**
 * One customer, every address (CONTRACT.md, the network of late 2026): a customer whose phone and user id are
 * linked is opted out, or back in, at both. Adds (or removes) `address` and the addresses linked to it in `tx`;
 * the changes made (none when nothing changed).
 */
export async function setCustomerOptOut(
  tx: CampaignTx,
  tenantId: number,
  address: string,
  optedOut: boolean,
  source: OptOutSource,
): Promise<OptOutChange[]> {
  const changes: OptOutChange[] = [];
  for (const phone of [address, ...(await tx.optOuts.linkedTo(tenantId, address))]) {
    const changed = optedOut
      ? (await tx.optOuts.add(tenantId, phone, source)) !== undefined
      : await tx.optOuts.remove(tenantId, phone);
    if (changed) changes.push(await recordChange(tx, { tenantId, phone, optedOut }, source));
  }
  return changes;
}
