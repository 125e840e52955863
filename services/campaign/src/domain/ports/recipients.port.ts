import type { RecipientStatus } from '@bm/contracts';

export interface NewRecipient {
  /** The recipient's address: a phone's digits, or their user id (then also in `userId`). */
  phone: string;
  userId: string | null;
  name: string | null;
  variables: Record<string, string> | null;
  /** Why the recipient is written as failed (an invalid phone, kept as submitted); null for a valid one. */
  error: string | null;
}

export interface Recipient {
  id: string;
  /** The recipient's address: a phone's digits (or as submitted, when invalid), or their user id. */
  phone: string;
  userId: string | null;
  name: string | null;
  variables: Record<string, string> | null;
  status: RecipientStatus;
  attempt: number;
  messageLogId: string | null;
  errorMessage: string | null;
  sentAt: Date | null;
}

/** An answer of messaging about one recipient's message. */
export interface MessageOutcome {
  recipientId: string;
  attempt: number;
  messageLogId: number;
  status: 'sent' | 'failed';
  errorMessage: string | null;
  at: Date;
}

/** A recipient that cannot be sent, and why. */
export interface RecipientFailure {
  id: string;
  errorMessage: string;
}

/** A campaign's valid recipients whose addresses begin alike (`prefix`), and how many they are. */
export interface AddressPrefixCount {
  campaignId: string;
  prefix: string;
  /** Whether these addresses are user ids (else phones' digits). */
  byUserId: boolean;
  count: number;
}

/** A campaign's recipients (inside a unit of work, its writes commit with it). */
export interface Recipients {
  insertMany(campaignId: string, recipients: readonly NewRecipient[]): Promise<void>;
  /** Removes the valid recipients whose phone the tenant has opted out; how many, per campaign. */
  dropOptedOut(tenantId: number, campaignIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * The valid recipients of these campaigns counted by the first `prefixLength` characters of their address:
   * enough to price them by market without reading every row.
   */
  countByAddressPrefix(campaignIds: readonly string[], prefixLength: number): Promise<AddressPrefixCount[]>;
  /**
   * One page of an export: the campaign's recipients after `after` (from the start when null), ordered by status
   * then id, so each page is a range of the (campaign_id, status, id) index however deep the export goes.
   */
  exportPage(
    campaignId: string,
    after: { status: string; id: string } | null,
    limit: number,
  ): Promise<Recipient[]>;
  page(
    campaignId: string,
    status: RecipientStatus | undefined,
    page: number,
    perPage: number,
  ): Promise<{ recipients: Recipient[]; total: number }>;
  /** The next recipients not yet handed to messaging, locked, with whether their phone has opted out since. */
  takeUnrequested(
    campaignId: string,
    tenantId: number,
    limit: number,
  ): Promise<Array<Recipient & { optedOut: boolean }>>;
  markRequested(ids: readonly string[]): Promise<void>;
  failMany(failures: readonly RecipientFailure[]): Promise<void>;
  /** Fails every recipient still pending and not handed to messaging (a campaign that cannot go on). */
  failUnrequested(campaignId: string, errorMessage: string): Promise<void>;
  /** Records messaging's answers for each recipient's current attempt; how many changed, by outcome. */
  applyOutcomes(outcomes: readonly MessageOutcome[]): Promise<{ sent: number; failed: number }>;
  /** Queues the failed recipients again (not invalid phones, not opt-outs), each with a new attempt; how many. */
  resetFailed(campaignId: string, tenantId: number): Promise<number>;
}
