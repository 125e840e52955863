import {
  marketingPreferencesOf,
  MESSAGING_TIERS,
  TIER_DAILY_LIMIT,
  type InboundAccountUpdateItem,
  type MessagingTier,
} from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';

/** The change that sets a business portfolio's daily limit, for all its numbers (WIRE-2026.md). */
const BUSINESS_CAPABILITY = 'business_capability_update';
/** The change by which a customer stops or resumes marketing messages from the business (WIRE-2026.md). */
const USER_PREFERENCES = 'user_preferences';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The portfolio's limit as `business_capability_update` writes it: a tier (TIER_2K, as its parameter table says), or
 * a daily number (2000, as its payload example says; -1 is unlimited, as the older per-phone limit wrote it).
 */
function tierOf(limit: unknown): MessagingTier | undefined {
  if (typeof limit !== 'number') return MESSAGING_TIERS.find((t) => t === limit);
  const daily = limit === -1 ? null : limit;
  return MESSAGING_TIERS.find((t) => TIER_DAILY_LIMIT[t] === daily);
}

/**
 * A `user_preferences` change: each marketing preference (`stop` or `resume`) of a customer, told to the campaign
 * service as the tenant's (the number its metadata names, else every number of the WABA); not a quality event.
 */
async function applyUserPreferences(
  deps: Pick<MessagingDeps, 'accounts' | 'unitOfWork' | 'outbox'>,
  item: InboundAccountUpdateItem,
): Promise<void> {
  const metadata = item.details.metadata as { phone_number_id?: unknown } | undefined;
  const phoneNumberId = text(metadata?.phone_number_id);
  const number = phoneNumberId ? await deps.accounts.findByPhoneNumberId(phoneNumberId) : undefined;
  const accounts = number ? [number] : await deps.accounts.listByWaba(item.waba_id);
  const preferences = marketingPreferencesOf(item.details, item.occurred_at);
  const receivedAt = item.received_at ?? item.occurred_at;
  await deps.unitOfWork.inTransaction(async (tx) => {
    for (const account of accounts)
      for (const p of preferences)
        await deps.outbox.emit(tx, 'customer.marketing_preference', account.tenantId, {
          channel_account_id: account.id,
          phone: p.phone,
          user_id: p.user_id,
          value: p.value,
          reason: 'user_preferences',
          chosen_at: p.chosen_at,
          received_at: receivedAt,
        });
  });
}

/**
 * `account_update`, `account_alerts` and the like: passed on to the client as `account.quality_event`. A
 * `business_capability_update` with `max_daily_conversations_per_business` sets the tier of the portfolios of the
 * WABA's numbers (every number of a portfolio shares it); a `user_preferences` change tells of customers' marketing
 * preferences instead.
 */
export async function applyAccountUpdate(
  deps: Pick<MessagingDeps, 'accounts' | 'unitOfWork' | 'outbox'>,
  item: InboundAccountUpdateItem,
): Promise<void> {
  if (item.field === USER_PREFERENCES) return applyUserPreferences(deps, item);
  const accounts = await deps.accounts.listByWaba(item.waba_id);
  const tier =
    item.field === BUSINESS_CAPABILITY
      ? tierOf(item.details.max_daily_conversations_per_business)
      : undefined;
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
