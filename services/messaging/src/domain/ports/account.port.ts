import type { MessagingTier } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

/** A sending number as the domain sees it; the token stays sealed until the adapter needs it. */
export interface ChannelAccount {
  id: string;
  tenantId: number;
  phoneNumberId: string;
  wabaId: string;
  /** The business portfolio (default the WABA): its numbers share one daily limit and tier. */
  businessId: string;
  displayPhoneNumber: string;
  accessTokenSealed: string;
  tier: MessagingTier;
  throughputPerSecond: number;
  active: boolean;
  webhooksSubscribed: boolean;
  qualityEvent: string | null;
  createdAt: Date;
}

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
  /** Sets the tier of every number of a portfolio (the tier is the portfolio's). */
  updatePortfolioTier(tx: Tx, businessId: string, tier: MessagingTier): Promise<void>;
  /** The tier the portfolio's numbers have, or undefined for a portfolio with none yet. */
  portfolioTier(tx: Tx, businessId: string): Promise<MessagingTier | undefined>;
}
