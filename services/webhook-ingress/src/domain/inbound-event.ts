import type { InboundEventOutcome, InboundSigningSecret, InboundSkippedPart } from '@bm/contracts';

/* A verified delivery of the upstream's webhooks as the domain sees it: the audit log's record. */

/** pending: stored, not split yet; the others say what splitting it did (see process-inbound-event). */
export type Outcome = InboundEventOutcome;

export interface NewInboundEvent {
  id: string;
  requestId: string | null;
  bodySha256: string;
  rawBody: string;
  headers: Record<string, string | string[]>;
  signedWith: InboundSigningSecret;
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
