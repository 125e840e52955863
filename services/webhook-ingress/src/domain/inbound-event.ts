import type { InboundEventOutcome, InboundSigningSecret, InboundSkippedPart } from '@bm/contracts';
import type { SplitItem } from './inbound-item';
import type { Tx } from './ingress-ports';

/* A verified delivery of the upstream's webhooks as the domain sees it: the audit log's record. */

/** pending: stored, not split yet; the others say what splitting it did (see process-inbound-event). */
export type Outcome = InboundEventOutcome;

export interface NewInboundEvent {
  id: string;
  receivedAt: Date;
  requestId: string | null;
  bodySha256: string;
  rawBody: string;
  headers: Record<string, string | string[]>;
  signedWith: InboundSigningSecret;
  /** The body already split, when it can be published with its audit row (see receive-webhook). */
  split?: ReceiptSplit;
}

/** A body split as it arrived, every item's tenant known: its items can go out in the audit row's statement. */
export interface ReceiptSplit {
  items: Array<{ item: SplitItem; tenantId: number | null }>;
  /** Parts of the body that could not become items. */
  skippedCount: number;
  /**
   * The items already went out, each confirmed by the broker (receive-webhook's sendOnReceipt): the audit row is
   * stored with its outcome and no outbox row. Otherwise they go out through the outbox with the row.
   */
  sent?: boolean;
}

export interface SplitSummary {
  outcome: Exclude<Outcome, 'pending'>;
  itemCount: number;
  publishedCount: number;
  duplicateCount: number;
  unroutableCount: number;
  skippedCount: number;
  unroutablePhoneNumberIds: string[];
  /** Items that could not be published, and why (parts the split could not read are derived from the body). */
  skippedItems: InboundSkippedPart[];
}

export interface InboundEvent extends Omit<SplitSummary, 'outcome'> {
  id: string;
  receivedAt: Date;
  requestId: string | null;
  bodySha256: string;
  bodyBytes: number;
  signedWith: InboundSigningSecret;
  outcome: Outcome;
  attempts: number;
  lastError: string | null;
  processedAt: Date | null;
  /** The event id each item sent on receipt went out with, by dedupe key; null when they went by the outbox. */
  sentItems: Record<string, string> | null;
}

/** A stored delivery waiting to be split. */
export interface PendingBody {
  id: string;
  receivedAt: Date;
  rawBody: string;
}

export interface InboundEventWithBody extends InboundEvent {
  rawBody: string;
  headers: Record<string, string | string[]>;
}

/** The audit log of verified deliveries: what came, and what splitting each did. */
export interface InboundEventStore {
  /**
   * Stores a delivery, resolving once committed. Answers true when its split was published in the same commit
   * (outcome set), false when it is left `pending` for the splitter.
   */
  insert(event: NewInboundEvent): Promise<boolean>;
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
