import type { CustomerChoiceTime } from '@bm/contracts';
import type { SplitItem } from './inbound-item';

/*
 * The ports webhook-ingress's use cases work through (InboundEventStore and NotificationStore sit beside their
 * records); data-access implements them. The domain never sees the database: it opens a unit of work and hands
 * its transaction back to the stores.
 */

/** An open database transaction, opaque to the domain: only handed back to the stores. */
export type Tx = object;

export interface UnitOfWork {
  /** Runs work in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Inside tx, runs work so that its failure undoes only its own writes (the rest of tx goes on), and rethrows. */
  isolated<T>(tx: Tx, work: () => Promise<T>): Promise<T>;
}

/** The owner of an upstream number, as messaging knows it. */
export interface AccountOwner {
  channelAccountId: string;
  tenantId: number;
}

/**
 * Messaging refused to look the number up (a 4xx other than "no such account", e.g. an id too long for a URL):
 * asking again will not change that, so the items of that number are skipped rather than retried.
 */
export class AccountLookupRefused extends Error {}

/** Who owns an upstream number: null when nobody does; throws AccountLookupRefused, or when it cannot answer. */
export interface AccountDirectory {
  ownerOf(phoneNumberId: string): Promise<AccountOwner | null>;
  /** The owner when it is known without asking (looked up a moment ago); undefined otherwise. */
  knownOwner(phoneNumberId: string): AccountOwner | undefined;
}

/** The campaign service's opt-out list, told of a customer's stop before the webhook is answered. */
export interface CustomerStops {
  /** A stop at `address` (a phone's digits or a user id), chosen at `at`. */
  stop(
    tenantId: number,
    stop: { address: string; source: 'keyword' | 'marketing_stop'; at: CustomerChoiceTime },
  ): Promise<void>;
}

/** An item ready for the outbox, with the delivery it came in and the tenant when one is known. */
export interface OutgoingItem {
  item: SplitItem;
  tenantId: number | null;
  inboundEventId: string;
}

/** The message an item goes out as, by the outbox or sent on receipt: its payload with the tenant when known. */
export const itemMessage = ({ item, tenantId }: OutgoingItem) => ({ ...item.payload, tenant_id: tenantId });

/**
 * The broker, for the items sent before the webhook is answered: resolves true once every item is confirmed, false
 * when one is not (not connected, refused, or not confirmed in time), so the caller can use the outbox instead.
 */
export interface ItemSender {
  send(items: OutgoingItem[]): Promise<boolean>;
}

/** The item kept under a dedupe key: which item event went out for it, and from which delivery. */
export interface PublishedItem {
  dedupeKey: string;
  itemEventId: string;
  inboundEventId: string;
}

/** The items that went out, once per dedupe key, with their outbox rows. */
export interface PublishedItemStore {
  publish(tx: Tx, items: OutgoingItem[]): Promise<Set<string>>;
  findByKeys(tx: Tx, keys: string[]): Promise<Map<string, PublishedItem>>;
}
