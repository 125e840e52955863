import { TIER_DAILY_LIMIT } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';

/** The tenant's active sending number and its tier's daily limit (null: unlimited); NO_ACTIVE_ACCOUNT else. */
export async function sendingAccountOf(
  deps: Pick<MessagingDeps, 'accounts'>,
  channelAccountId: string,
  tenantId: number,
) {
  const account = await deps.accounts.findActiveForTenant(channelAccountId, tenantId);
  if (!account) throw new AppError('NO_ACTIVE_ACCOUNT');
  return { account, dailyLimit: TIER_DAILY_LIMIT[account.tier] ?? null };
}
