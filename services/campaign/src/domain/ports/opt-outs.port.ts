import type { OptOutSource } from '@bm/contracts';

export interface OptOut {
  phone: string;
  source: OptOutSource;
  createdAt: Date;
}

/** One committed change of a phone's opt-out, in the order of the tenant's changes. */
export interface OptOutChange {
  tenantId: number;
  phone: string;
  optedOut: boolean;
  version: number;
}

/** A tenant's opted-out phones, normalized digits (inside a unit of work, its writes commit with it). */
export interface OptOuts {
  /** Adds a phone; the new entry, or undefined when it was already there (nothing changes then). */
  add(tenantId: number, phone: string, source: OptOutSource): Promise<OptOut | undefined>;
  find(tenantId: number, phone: string): Promise<OptOut | undefined>;
  /** Removes a phone; whether it was there. */
  remove(tenantId: number, phone: string): Promise<boolean>;
  /** The version of a change just made in this unit of work (after its add or remove, which locks the row). */
  nextVersion(): Promise<number>;
  /** A page, newest first; `phonePrefix` (digits) narrows it to the phones that start with it. */
  page(
    tenantId: number,
    page: number,
    perPage: number,
    phonePrefix?: string,
  ): Promise<{ optOuts: OptOut[]; total: number }>;
  /** How many of these phones (normalized digits) are opted out. */
  countAmong(tenantId: number, phones: readonly string[]): Promise<number>;
}
