import type { InboundAccountUpdateItem } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';

/** `account_update`, `account_alerts` and the like: passed on to the client as `account.quality_event`. */
export async function applyAccountUpdate(
  deps: Pick<MessagingDeps, 'accounts' | 'unitOfWork' | 'outbox'>,
  item: InboundAccountUpdateItem,
): Promise<void> {
  for (const account of await deps.accounts.listByWaba(item.waba_id)) {
    await deps.unitOfWork.inTransaction((tx) =>
      deps.outbox.emit(tx, 'account.quality_event', account.tenantId, {
        channel_account_id: account.id,
        kind: item.field,
        details: { event: item.event, ...item.details },
      }),
    );
  }
}
