import type { MessagingDeps } from '../messaging-deps';
import { sendingAccountOf } from './sending-account';
import type { Capacity } from '../ports/capacity.port';

/** Holds capacity for a campaign; two concurrent reservations cannot both take the last slot. */
export async function reserveCapacity(
  deps: Pick<MessagingDeps, 'accounts' | 'ledger' | 'config'>,
  tenantId: number,
  channelAccountId: string,
  input: { reference: string; count: number; partial: boolean },
): Promise<{ granted: number; capacity: Capacity }> {
  const { account, dailyLimit } = await sendingAccountOf(deps, channelAccountId, tenantId);
  return deps.ledger.reserve(account, dailyLimit, {
    ...input,
    ttlMs: deps.config.CAPACITY_RESERVATION_TTL_MS,
  });
}
