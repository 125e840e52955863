import type {
  InboundEvent,
  InboundEventWithBody,
  NewInboundEvent,
  Outcome,
  PendingBody,
  SplitSummary,
} from './inbound-event';
import type { NewNotification, Notification } from './notification';
import type { OutgoingItem, PublishedItem } from '../data-access/published-item.repository';

/*
 * The ports webhook-ingress's use cases work through; data-access implements them. The domain never sees the
 * database: it opens a unit of work and hands its transaction back to the stores.
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
}

/** The audit log of verified deliveries: what came, and what splitting each did. */
export interface InboundEventStore {
  insert(event: NewInboundEvent): Promise<void>;
  find(id: string): Promise<InboundEvent | undefined>;
  findWithBody(id: string): Promise<InboundEventWithBody | undefined>;
  list(
    outcome: Outcome | undefined,
    page: number,
    perPage: number,
  ): Promise<{ items: InboundEvent[]; total: number }>;
  sameBody(bodySha256: string, exceptId: string): Promise<string[]>;
  dueWithBodies(limit: number, maxBytes: number): Promise<PendingBody[]>;
  /** Of these pending events, those this transaction could lock (others are another worker's). */
  lockPending(tx: Tx, ids: string[]): Promise<Set<string>>;
  lock(tx: Tx, id: string, skipLocked: boolean): Promise<{ outcome: Outcome } | undefined>;
  finishMany(tx: Tx, summaries: Array<SplitSummary & { id: string }>): Promise<void>;
  recordFailure(
    id: string,
    error: string,
    permanent: boolean,
    failAfter: number,
  ): Promise<Outcome | undefined>;
  /** Events given up (outcome failed), waiting for an operator. */
  countFailed(): Promise<number>;
}

/** The items that went out, once per dedupe key, with their outbox rows. */
export interface PublishedItemStore {
  publish(tx: Tx, items: OutgoingItem[]): Promise<Set<string>>;
  findByKeys(tx: Tx, keys: string[]): Promise<Map<string, PublishedItem>>;
}

/** Notifications raised for tenants. */
export interface NotificationStore {
  insertMany(tx: Tx, notifications: NewNotification[]): Promise<void>;
  list(tenantId: number, page: number, perPage: number): Promise<{ items: Notification[]; total: number }>;
}
