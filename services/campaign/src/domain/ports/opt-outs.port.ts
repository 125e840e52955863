import type { CustomerLink, OptOutSource } from '@bm/contracts';

export interface OptOut {
  /** The customer's address: a phone's normalized digits or a user id. */
  phone: string;
  source: OptOutSource;
  createdAt: Date;
}

/** When a customer made a choice about marketing: the upstream's time of it, then when we received it. */
export interface ChoiceTime {
  chosenAt: Date;
  receivedAt: Date;
}

/** One committed change of a phone's opt-out, in the order of the tenant's changes. */
export interface OptOutChange {
  tenantId: number;
  phone: string;
  optedOut: boolean;
  version: number;
}

/**
 * A tenant's opted-out customers by address, a phone's normalized digits or a user id, and the links that make two
 * addresses one customer (inside a unit of work, its writes commit with it).
 */
export interface OptOuts {
  /** Adds a phone; the new entry, or undefined when it was already there (nothing changes then). */
  add(tenantId: number, phone: string, source: OptOutSource): Promise<OptOut | undefined>;
  find(tenantId: number, phone: string): Promise<OptOut | undefined>;
  /** Removes a phone; whether it was there. */
  remove(tenantId: number, phone: string): Promise<boolean>;
  /** Records that a phone and a user id are one customer (a user id belongs to one phone); whether it is new. */
  link(tenantId: number, link: CustomerLink): Promise<boolean>;
  /** Drops the links of an address the customer left. */
  forget(tenantId: number, address: string): Promise<void>;
  /** The customer's other addresses: those linked to this one. */
  linkedTo(tenantId: number, address: string): Promise<string[]>;
  /**
   * Keeps `at` as the customer's latest choice at this address, unless one as late or later is kept (a copy of it,
   * or a choice made after it): whether it is the latest. Locks the address's choice until the unit of work ends.
   */
  recordChoice(tenantId: number, address: string, at: ChoiceTime): Promise<boolean>;
  /** The version of a change just made in this unit of work (after its add or remove, which locks the row). */
  nextVersion(): Promise<number>;
  /** A page, newest first; `phonePrefix` (digits) narrows it to the phones that start with it. */
  page(
    tenantId: number,
    page: number,
    perPage: number,
    phonePrefix?: string,
  ): Promise<{ optOuts: OptOut[]; total: number }>;
  /** Which of these addresses (phones' normalized digits or user ids) are opted out. */
  optedOutAmong(tenantId: number, addresses: readonly string[]): Promise<string[]>;
}
