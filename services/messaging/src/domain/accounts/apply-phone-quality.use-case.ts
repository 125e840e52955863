import { MESSAGING_TIERS, type InboundPhoneQualityItem } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';

/**
 * `phone_number_quality_update`: the event is kept; an update that still carries `current_limit` (the wire before
 * February 2026) sets the tier of the number's portfolio, one without it changes no tier.
 */
export async function applyPhoneQuality(
  deps: Pick<MessagingDeps, 'accounts' | 'unitOfWork' | 'outbox'>,
  item: InboundPhoneQualityItem,
): Promise<void> {
  const display = item.display_phone_number.replace(/\D/g, '');
  const accounts = (await deps.accounts.listByWaba(item.waba_id)).filter(
    (a) => a.displayPhoneNumber === display || a.phoneNumberId === item.phone_number_id,
  );
  const tier = MESSAGING_TIERS.find((t) => t === item.current_limit) ?? null;
  for (const account of accounts) {
    await deps.unitOfWork.inTransaction(async (tx) => {
      if (tier && tier !== account.tier)
        await deps.accounts.updatePortfolioTier(tx, account.businessId, tier);
      await deps.accounts.setQualityEvent(tx, account.id, item.event);
      await deps.outbox.emit(tx, 'account.quality_event', account.tenantId, {
        channel_account_id: account.id,
        kind: 'phone_number_quality_update',
        details: { event: item.event, current_limit: item.current_limit, previous_tier: account.tier },
      });
    });
  }
}
