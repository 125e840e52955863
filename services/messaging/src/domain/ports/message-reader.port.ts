import type { MessageLog, MessageListFilter, CampaignRecipientRef } from './message-log.port';
import type { Tx } from './unit-of-work.port';

/**
 * Reads of message logs: one by id, by wamid or by campaign recipient, the tenant's listing, and what a
 * campaign's messages cost.
 */
export interface MessageReader {
  findForTenant(id: number, tenantId: number): Promise<MessageLog | undefined>;
  findById(tx: Tx, id: number, options?: { lock?: boolean }): Promise<MessageLog | undefined>;
  /** The messages with these ids (those that exist), read without a lock. */
  findByIds(ids: readonly number[]): Promise<MessageLog[]>;
  findByProviderId(
    tx: Tx,
    providerMessageId: string,
    options?: { lock?: boolean },
  ): Promise<MessageLog | undefined>;
  findByCampaignRecipient(send: CampaignRecipientRef): Promise<MessageLog | undefined>;
  /** Which of these campaign recipients' sends already have their message log (keys as `campaignSendKey`). */
  existingCampaignRecipients(sends: readonly CampaignRecipientRef[]): Promise<Set<string>>;
  list(
    tenantId: number,
    filter: MessageListFilter,
    page: number,
    perPage: number,
  ): Promise<{ items: MessageLog[]; total: number }>;
  /** One page of an export: the tenant's filtered messages below `beforeId` (all when null), newest first. */
  exportPage(
    tenantId: number,
    filter: MessageListFilter,
    beforeId: number | null,
    limit: number,
  ): Promise<MessageLog[]>;
  /** The sum of a tenant's campaign's messages' costs in `currency` (those priced in another left out). */
  campaignCost(tenantId: number, campaignId: string, currency: string): Promise<number>;
}
