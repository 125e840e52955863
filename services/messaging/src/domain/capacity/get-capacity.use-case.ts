import type { MessagingDeps } from '../messaging-deps';
import { sendingAccountOf } from './sending-account';
import type { Capacity } from '../ports/capacity.port';

/** `{daily_limit, used_today, remaining}` of a sending number's portfolio (remaining null when unlimited). */
export async function getCapacity(
  deps: Pick<MessagingDeps, 'accounts' | 'ledger'>,
  tenantId: number,
  channelAccountId: string,
): Promise<Capacity> {
  const { account, dailyLimit } = await sendingAccountOf(deps, channelAccountId, tenantId);
  return deps.ledger.capacityOf(dailyLimit, await deps.ledger.used(account.businessId));
}
