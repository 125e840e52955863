import type { OptOutSource } from '@bm/contracts';
import type { EntityManager } from 'typeorm';
import type { OptOutChange } from '../../data-access/opt-out.repository';
import type { CampaignDeps } from '../campaign-deps';
import { emitOptOutChanged } from '../emit-event';

/**
 * Records a change made in `tx`: its version, and the opt_out.changed event committed with it. The change is
 * returned for `syncMessagingCopy` once the transaction has committed.
 */
export async function recordChange(
  deps: CampaignDeps,
  tx: EntityManager,
  change: Omit<OptOutChange, 'version'>,
  source: OptOutSource,
): Promise<OptOutChange> {
  const versioned = { ...change, version: await deps.optOuts.nextVersion(tx) };
  await emitOptOutChanged(tx, versioned, source);
  return versioned;
}

/**
 * Tells messaging of a committed change at once, so a MARKETING send right after it is checked against it. Best
 * effort: the opt_out.changed event committed with the change brings messaging's copy there in any case, and
 * the version keeps whichever arrives second from undoing a newer change.
 */
export async function syncMessagingCopy(deps: CampaignDeps, change: OptOutChange): Promise<void> {
  try {
    await deps.messaging.setOptOut(change);
  } catch (err) {
    deps.logger.warn('opt-out left to its event', {
      tenant_id: change.tenantId,
      error: (err as Error).message,
    });
  }
}
