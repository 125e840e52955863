import type { MessagingTier } from '@bm/contracts';
import type { ChannelAccount } from '../../data-access/channel-account.repository';
import type { Capacity } from '../../data-access/conversation-ledger.repository';
import type { Template, TemplateInput, TemplateState } from '../../data-access/template.repository';
import type { Tx } from './unit-of-work.port';

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
