import type { CampaignStatus, HeaderMediaInput, TemplateCategory, TemplateComponent } from '@bm/contracts';

export interface Campaign {
  id: string;
  tenantId: number;
  channelAccountId: string;
  name: string | null;
  status: CampaignStatus;
  templateName: string;
  templateLanguage: string;
  /** Null for a campaign created before its category was kept (it has no estimate). */
  templateCategory: TemplateCategory | null;
  templateComponents: TemplateComponent[];
  templateParams: string[];
  headerMedia: HeaderMediaInput | null;
  requestedCount: number;
  totalCount: number;
  scheduledAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  failureReason: string | null;
  campaignGroupId: string | null;
  partNumber: number | null;
  partsTotal: number | null;
  idempotencyKey: string | null;
  uploadId: string | null;
  uploadOffset: number;
  /** What its deliverable recipients cost at the rate card's prices, set by preparation (null before, or unknown). */
  estimatedCost: number | null;
  /** The currency of the estimate and of the cost so far (the rate card's), set with the estimate. */
  costCurrency: string | null;
  /** What its messages cost when messaging last said (0 before any was priced). */
  costAmount: number;
  /** When messaging last said it (null: never asked). */
  costCheckedAt: Date | null;
}

export type NewCampaign = Omit<
  Campaign,
  | 'createdAt'
  | 'startedAt'
  | 'finishedAt'
  | 'failureReason'
  | 'totalCount'
  | 'estimatedCost'
  | 'costCurrency'
  | 'costAmount'
  | 'costCheckedAt'
>;

/** A prepared campaign's estimate, in the rate card's currency. */
export interface CostEstimate {
  amount: number;
  currency: string;
}

/** Recipient counts of a campaign by where they stand. */
export interface RecipientCounts {
  sent: number;
  failed: number;
  /** Pending and not yet handed to messaging. */
  unrequested: number;
  /** Handed to messaging, no answer yet. */
  inFlight: number;
}

/** What a status change writes besides the status. */
export interface StatusChange {
  started?: boolean;
  finished?: boolean;
  failureReason?: string;
  /** When the dispatcher looks at the campaign again (null: on its next pass). */
  nextCheckAt?: Date | null;
  /** A retried campaign starts over: no finish time, no failure reason. */
  reopened?: boolean;
}

/** The campaigns (inside a unit of work, their writes commit with it). */
export interface Campaigns {
  /** Campaigns not yet finished, counted by status. */
  countActiveByStatus(): Promise<Array<{ status: string; count: number }>>;
  insert(campaign: NewCampaign): Promise<Campaign>;
  /** A tenant's campaign (locked when asked); undefined for an unknown id or another tenant's. */
  findForTenant(id: string, tenantId: number, options?: { lock?: boolean }): Promise<Campaign | undefined>;
  /**
   * The next campaign with work to do now, locked so one replica handles it (SKIP LOCKED), less `except`;
   * undefined when none is due.
   */
  claimDue(except: readonly string[]): Promise<Campaign | undefined>;
  /**
   * Keeps other replicas off a campaign until `until` while its step talks to messaging outside any
   * transaction (the dispatcher passes over it until then).
   */
  lease(id: string, until: Date): Promise<void>;
  /**
   * Locks a leased campaign again and ends the lease; undefined when the campaign changed meanwhile (paused,
   * cancelled, resumed, or leased by another replica after this lease ran out).
   */
  reclaim(id: string, until: Date): Promise<Campaign | undefined>;
  setStatus(id: string, status: CampaignStatus, change?: StatusChange): Promise<void>;
  /** Moves a tenant's campaign from one of `from` to `to`; the updated campaign, or undefined when elsewhere. */
  transition(
    id: string,
    tenantId: number,
    from: readonly CampaignStatus[],
    to: CampaignStatus,
  ): Promise<Campaign | undefined>;
  counts(campaignId: string): Promise<RecipientCounts>;
  /** A page of the tenant's campaigns, newest first, or a split group's parts in order. */
  pageForTenant(
    tenantId: number,
    query: { page: number; per_page: number; status?: CampaignStatus; campaign_group_id?: string },
  ): Promise<{ campaigns: Campaign[]; total: number }>;
  /** Sent and failed recipients of each campaign of a page. */
  countsOf(campaignIds: readonly string[]): Promise<Map<string, { sent: number; failed: number }>>;
  /** Keeps what messaging just said the campaign's messages cost, and when. */
  recordCost(id: string, amount: number): Promise<void>;
}
