import type { MessagingDeps } from '../messaging-deps';
import { sendingAccountOf } from './sending-account';

export async function releaseCapacity(
  deps: Pick<MessagingDeps, 'accounts' | 'ledger'>,
  tenantId: number,
  channelAccountId: string,
  reference: string,
): Promise<void> {
  const { account } = await sendingAccountOf(deps, channelAccountId, tenantId);
  await deps.ledger.release(account.id, reference);
}
