import { MESSAGING_TIERS, type InboundAccountUpdateItem } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';

/** The change that sets a business portfolio's daily limit, for all its numbers (WIRE-2026.md). */
const BUSINESS_CAPABILITY = 'business_capability_update';

/**
 * `account_update`, `account_alerts` and the like: passed on to the client as `account.quality_event`. A
 * `business_capability_update` with `max_daily_conversations_per_business` sets the tier of the portfolios of the
 * WABA's numbers (every number of a portfolio shares it).
 */
export async function applyAccountUpdate(
  deps: Pick<MessagingDeps, 'accounts' | 'unitOfWork' | 'outbox'>,
  item: InboundAccountUpdateItem,
): Promise<void> {
  const accounts = await deps.accounts.listByWaba(item.waba_id);
  const limit =
    item.field === BUSINESS_CAPABILITY ? item.details.max_daily_conversations_per_business : undefined;
  const tier = MESSAGING_TIERS.find((t) => t === limit);
  if (tier) {
    await deps.unitOfWork.inTransaction(async (tx) => {
      for (const businessId of new Set(accounts.map((a) => a.businessId)))
        await deps.accounts.updatePortfolioTier(tx, businessId, tier);
    });
  }
  for (const account of accounts) {
    await deps.unitOfWork.inTransaction((tx) =>
      deps.outbox.emit(tx, 'account.quality_event', account.tenantId, {
        channel_account_id: account.id,
        kind: item.field,
        details: { event: item.event, ...item.details },
      }),
    );
  }
}
