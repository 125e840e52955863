import type { MessagingTier } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

/** A number's tier capacity today: its limit (null: unlimited), what is used or held, and what is left. */
export interface Capacity {
  daily_limit: number | null;
  used_today: number;
  remaining: number | null;
}

/** A sending number as the domain sees it; the token stays sealed until the adapter needs it. */
export interface ChannelAccount {
  id: string;
  tenantId: number;
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  accessTokenSealed: string;
  tier: MessagingTier;
  throughputPerSecond: number;
  active: boolean;
  webhooksSubscribed: boolean;
  qualityEvent: string | null;
  createdAt: Date;
}

/** The upstream's quality flag on a template (FLAGGED): still sendable, it may be paused or disabled later. */
export interface TemplateFlag {
  reason: string | null;
  flaggedAt: Date;
}

/** A template of a sending number, as the upstream last described it. */
export interface Template {
  id: string;
  channelAccountId: string;
  upstreamId: string | null;
  name: string;
  language: string;
  status: string;
  category: string;
  headerFormat: string | null;
  headerSampleMediaUrl: string | null;
  components: Array<Record<string, unknown>>;
  flag: TemplateFlag | null;
}

/** A template as the upstream describes it, before it is stored for a number. */
export type TemplateInput = Omit<Template, 'id' | 'channelAccountId' | 'flag'>;

/** What the upstream's status updates set on a template. */
export type TemplateState = Pick<Template, 'status' | 'category' | 'flag'>;

/** Sending numbers. */
export interface ChannelAccountStore {
  /** The account by id from a short-lived cache, read through on a miss. */
  findCached(id: string): Promise<ChannelAccount | undefined>;
  insert(
    tx: Tx,
    account: Omit<ChannelAccount, 'createdAt' | 'active' | 'qualityEvent'>,
  ): Promise<ChannelAccount>;
  findById(id: string): Promise<ChannelAccount | undefined>;
  /** The tenant's active account with that id; another tenant's is as good as absent. */
  findActiveForTenant(id: string, tenantId: number): Promise<ChannelAccount | undefined>;
  findByPhoneNumberId(phoneNumberId: string): Promise<ChannelAccount | undefined>;
  listByWaba(wabaId: string): Promise<ChannelAccount[]>;
  listForTenant(tenantId: number): Promise<ChannelAccount[]>;
  setWebhooksSubscribed(id: string, subscribed: boolean): Promise<void>;
  setQualityEvent(tx: Tx, id: string, event: string): Promise<void>;
  updateTier(tx: Tx, id: string, tier: MessagingTier): Promise<void>;
}

/** The accounts' templates, as the upstream last described them. */
export interface TemplateStore {
  /** Inserts or refreshes the account's templates by (name, language); returns the stored rows. */
  upsertMany(tx: Tx, channelAccountId: string, templates: TemplateInput[]): Promise<Template[]>;
  /** The template of that name (and language, when given); inside a transaction pass it as `tx`. */
  find(channelAccountId: string, name: string, language?: string, tx?: Tx): Promise<Template | undefined>;
  listForAccounts(accountIds: string[], status?: string): Promise<Template[]>;
  /** An account's template, locked until the transaction ends, by name and language in either spelling. */
  findForUpdate(
    tx: Tx,
    channelAccountId: string,
    name: string,
    language: string,
  ): Promise<Template | undefined>;
  setState(tx: Tx, id: string, state: TemplateState): Promise<void>;
}

/** Capacity held for a reference (a campaign) until it expires; re-reserving the reference replaces it. */
export interface CapacityHold {
  reference: string;
  count: number;
  ttlMs: number;
  partial: boolean;
}

/** Business-initiated conversations per number in the rolling window, and capacity held for campaigns. */
export interface CapacityLedger {
  /** Conversations within the window plus what live reservations still hold. */
  used(channelAccountId: string): Promise<number>;
  capacityOf(dailyLimit: number | null, used: number): Capacity;
  /** Reserves up to `count` slots for a reference atomically; what fits when `partial`, else all or nothing. */
  reserve(
    channelAccountId: string,
    dailyLimit: number | null,
    hold: CapacityHold,
  ): Promise<{ granted: number; capacity: Capacity }>;
  release(channelAccountId: string, reference: string): Promise<void>;
}
