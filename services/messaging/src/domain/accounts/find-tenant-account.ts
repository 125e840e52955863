import { ulidSchema } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import type { ChannelAccount } from '../ports/account.port';

/** One of the tenant's own active numbers; another tenant's, or an unknown one, is 404 CHANNEL_ACCOUNT_NOT_FOUND. */
export async function findTenantAccount(
  deps: Pick<MessagingDeps, 'accounts'>,
  tenantId: number,
  channelAccountId: string,
): Promise<ChannelAccount> {
  const account = ulidSchema.validate(channelAccountId).error
    ? undefined
    : await deps.accounts.findActiveForTenant(channelAccountId, tenantId);
  if (!account) throw new AppError('CHANNEL_ACCOUNT_NOT_FOUND');
  return account;
}
