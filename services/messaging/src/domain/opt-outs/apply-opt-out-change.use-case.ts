import type { OptOutChangedEvent } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';

/**
 * Keeps the copy of the tenant's opt-outs that single MARKETING sends are checked against. The campaign service
 * sets it directly when a change commits (so a send right after sees it) and by its event (which cannot be lost);
 * the change's version decides when both arrive, in either order.
 */
export async function applyOptOutChange(
  deps: Pick<MessagingDeps, 'unitOfWork' | 'customers'>,
  change: Pick<OptOutChangedEvent, 'tenant_id' | 'phone' | 'opted_out' | 'version'>,
): Promise<void> {
  await deps.unitOfWork.inTransaction((tx) =>
    deps.customers.setOptOut(tx, change.tenant_id, change.phone, change.opted_out, change.version),
  );
}
