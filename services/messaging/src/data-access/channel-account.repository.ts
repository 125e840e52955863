import type { DataSource, EntityManager } from 'typeorm';
import type { MessagingTier } from '@bm/contracts';
import { ChannelAccountEntity } from './channel-account.entity';
import type { ChannelAccount, ChannelAccountStore } from '../domain/ports/account.port';

const toAccount = (e: ChannelAccountEntity): ChannelAccount => ({
  id: e.id,
  tenantId: e.tenantId,
  phoneNumberId: e.phoneNumberId,
  wabaId: e.wabaId,
  businessId: e.businessId,
  displayPhoneNumber: e.displayPhoneNumber,
  accessTokenSealed: e.accessTokenSealed,
  // Written only from MESSAGING_TIERS: the connect schema and the upstream's quality updates.
  tier: e.tier as MessagingTier,
  throughputPerSecond: e.throughputPerSecond,
  active: e.active,
  webhooksSubscribed: e.webhooksSubscribed,
  qualityEvent: e.qualityEvent,
  createdAt: e.createdAt,
});

// Accounts are read on every send; a change (deactivation, tier) reaches every replica within this time.
const CACHE_TTL_MS = 5_000;

export class ChannelAccountRepository implements ChannelAccountStore {
  private readonly cache = new Map<string, { account: ChannelAccount; expiresAt: number }>();

  constructor(private readonly dataSource: DataSource) {}

  /** The account by id from a short-lived cache, read through on a miss. */
  async findCached(id: string): Promise<ChannelAccount | undefined> {
    const hit = this.cache.get(id);
    if (hit && hit.expiresAt > Date.now()) return hit.account;
    const account = await this.findById(id);
    if (account) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(id, { account, expiresAt: Date.now() + CACHE_TTL_MS });
    }
    return account;
  }

  async insert(
    tx: EntityManager,
    account: Omit<ChannelAccount, 'createdAt' | 'active' | 'qualityEvent'>,
  ): Promise<ChannelAccount> {
    const repo = tx.getRepository(ChannelAccountEntity);
    return toAccount(await repo.save(repo.create({ ...account, active: true, qualityEvent: null })));
  }

  async findById(id: string): Promise<ChannelAccount | undefined> {
    const found = await this.dataSource.getRepository(ChannelAccountEntity).findOneBy({ id });
    return found ? toAccount(found) : undefined;
  }

  /** The tenant's active account with that id; another tenant's is as good as absent. */
  async findActiveForTenant(id: string, tenantId: number): Promise<ChannelAccount | undefined> {
    const account = await this.findCached(id);
    return account && account.tenantId === tenantId && account.active ? account : undefined;
  }

  async findByPhoneNumberId(phoneNumberId: string): Promise<ChannelAccount | undefined> {
    const found = await this.dataSource.getRepository(ChannelAccountEntity).findOneBy({ phoneNumberId });
    return found ? toAccount(found) : undefined;
  }

  async listByWaba(wabaId: string): Promise<ChannelAccount[]> {
    return (await this.dataSource.getRepository(ChannelAccountEntity).findBy({ wabaId })).map(toAccount);
  }

  /** The tenant's accounts, oldest first (ULID order). */
  async listForTenant(tenantId: number): Promise<ChannelAccount[]> {
    const rows = await this.dataSource
      .getRepository(ChannelAccountEntity)
      .find({ where: { tenantId }, order: { id: 'ASC' } });
    return rows.map(toAccount);
  }

  async setWebhooksSubscribed(id: string, subscribed: boolean): Promise<void> {
    await this.dataSource
      .getRepository(ChannelAccountEntity)
      .update({ id }, { webhooksSubscribed: subscribed });
    this.cache.delete(id);
  }

  async setQualityEvent(tx: EntityManager, id: string, event: string): Promise<void> {
    await tx.getRepository(ChannelAccountEntity).update({ id }, { qualityEvent: event });
    this.cache.delete(id);
  }

  async updateTier(tx: EntityManager, id: string, tier: MessagingTier): Promise<void> {
    await tx.getRepository(ChannelAccountEntity).update({ id }, { tier });
    this.cache.delete(id);
  }

  async updatePortfolioTier(tx: EntityManager, businessId: string, tier: MessagingTier): Promise<void> {
    await tx.getRepository(ChannelAccountEntity).update({ businessId }, { tier });
    // This replica forgets them now; the others within the cache's few seconds.
    this.cache.clear();
  }

  async portfolioTier(tx: EntityManager, businessId: string): Promise<MessagingTier | undefined> {
    const found = await tx
      .getRepository(ChannelAccountEntity)
      .findOne({ where: { businessId }, order: { id: 'ASC' } });
    return found ? (found.tier as MessagingTier) : undefined;
  }
}
