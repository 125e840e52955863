import type { CustomerLink } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

/** A customer's message as stored, once per upstream message id. */
export interface NewInboundMessage {
  providerMessageId: string;
  tenantId: number;
  channelAccountId: string;
  /** Null for a customer the upstream names by user id only. */
  fromPhone: string | null;
  fromUserId: string | null;
  username: string | null;
  type: string;
  body: unknown;
  receivedAt: Date;
  /** The ingress event it came in (a ULID, in the order messages reached us). */
  arrivalId: string;
}

/** Service windows (24 h after a customer's last message) and the opt-out copy kept for single sends. */
export interface CustomerStateStore {
  isWindowOpen(tx: Tx, channelAccountId: string, phone: string): Promise<boolean>;
  /** Opens or extends the window; an older message (out of order) never shortens it. */
  touchWindow(tx: Tx, channelAccountId: string, phone: string, at: Date): Promise<void>;
  /** Whether the customer at this address (or one linked to it) is opted out. Inside a transaction pass `tx`. */
  isOptedOut(tenantId: number, address: string, tx?: Tx): Promise<boolean>;
  /** Moves a customer's window on an account to their new address; the later of the two windows is kept. */
  moveWindow(tx: Tx, channelAccountId: string, from: string, to: string): Promise<void>;
  /** Records that a phone and a user id are one customer (a user id belongs to one phone). */
  link(tx: Tx, tenantId: number, link: CustomerLink): Promise<void>;
  /** Drops the links of an address the customer left. */
  forget(tx: Tx, tenantId: number, address: string): Promise<void>;
  /** A customer's addresses: the one given first, then those linked to it. */
  addressesOf(tenantId: number, address: string, tx?: Tx): Promise<string[]>;
  /** Applies one change of the copy unless a newer one (a higher version) is already applied. */
  setOptOut(
    tx: Tx,
    tenantId: number,
    phone: string,
    optedOut: boolean,
    version: number | undefined,
  ): Promise<void>;
}

/** Customers' messages, stored once per upstream message id. */
export interface InboundMessageStore {
  /** False when it was stored before (a redelivered webhook). */
  insert(tx: Tx, message: NewInboundMessage): Promise<boolean>;
}
