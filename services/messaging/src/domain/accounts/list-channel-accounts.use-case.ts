import { TIER_DAILY_LIMIT, type ChannelAccountSummaryDto } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';

/**
 * The tenant's sending numbers as the dashboard's number list shows them: the API ID a send names, the number,
 * its state, tier, latest quality event, webhook subscription, and today's used and remaining tier capacity.
 */
export async function listChannelAccounts(
  deps: Pick<MessagingDeps, 'accounts' | 'ledger'>,
  tenantId: number,
): Promise<{ channel_accounts: ChannelAccountSummaryDto[] }> {
  const accounts = await deps.accounts.listForTenant(tenantId);
  const channel_accounts = await Promise.all(
    accounts.map(async (a) => ({
      channel_account_id: a.id,
      phone_number_id: a.phoneNumberId,
      waba_id: a.wabaId,
      business_id: a.businessId,
      display_phone_number: a.displayPhoneNumber,
      status: a.active ? ('active' as const) : ('inactive' as const),
      tier: a.tier,
      quality_event: a.qualityEvent,
      throughput_per_second: a.throughputPerSecond,
      webhooks_subscribed: a.webhooksSubscribed,
      capacity: deps.ledger.capacityOf(
        TIER_DAILY_LIMIT[a.tier] ?? null,
        await deps.ledger.used(a.businessId),
      ),
      created_at: a.createdAt.toISOString(),
    })),
  );
  return { channel_accounts };
}
