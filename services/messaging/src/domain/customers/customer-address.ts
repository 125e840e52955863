import { addressChangeOf, isUserIdAddress, linkOf, type InboundMessageItem } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';

/*
 * One customer, two addresses (CONTRACT.md, the network of late 2026): a phone and a business-scoped user id, linked
 * once a message of theirs names both. A customer's window and messages are kept under their phone when it is
 * known (given, or linked to the user id), else under their user id; opt-outs are checked at every linked address.
 */

type CustomerDeps = Pick<MessagingDeps, 'customers'>;

/** The address a customer's window and messages are kept under: their phone when known, else their user id. */
export async function keyAddressOf(
  deps: CustomerDeps,
  tenantId: number,
  address: string,
  tx?: Tx,
): Promise<string> {
  if (!isUserIdAddress(address)) return address;
  const addresses = await deps.customers.addressesOf(tenantId, address, tx);
  return addresses.find((a) => !isUserIdAddress(a)) ?? address;
}

/**
 * What a customer's message tells of who they are: a message naming both addresses links them; a change of address
 * (a system message) moves their window on this account and their links, and is passed on for their opt-out.
 * Returns the address the message's customer is kept under.
 */
export async function learnCustomer(
  deps: CustomerDeps & Pick<MessagingDeps, 'outbox' | 'conversations'>,
  tx: Tx,
  account: { id: string; tenantId: number },
  item: InboundMessageItem,
): Promise<string> {
  const change = addressChangeOf(item);
  if (change) {
    await deps.customers.moveWindow(tx, account.id, change.previous, change.current);
    await deps.customers.forget(tx, account.tenantId, change.previous);
    if (change.link) await deps.customers.link(tx, account.tenantId, change.link);
    await deps.conversations.rekey(tx, account.tenantId, change.previous, change.current);
    await deps.outbox.emit(tx, 'customer.address_changed', account.tenantId, {
      channel_account_id: account.id,
      previous: change.previous,
      current: change.current,
      link: change.link && { phone: change.link.phone, user_id: change.link.userId },
    });
    return change.current;
  }
  const link = linkOf(item);
  if (link) {
    await deps.customers.link(tx, account.tenantId, link);
    // The customer's conversations kept under their user id until now join the ones under their phone.
    await deps.conversations.rekey(tx, account.tenantId, link.userId, link.phone);
    return link.phone;
  }
  const phone = item.from?.replace(/\D/g, '') || null;
  return phone ?? (await keyAddressOf(deps, account.tenantId, item.from_user_id ?? '', tx));
}
