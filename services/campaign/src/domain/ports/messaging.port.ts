import type { TemplateDto } from '@bm/contracts';
import type { OptOutChange } from './opt-outs.port';

export interface Capacity {
  daily_limit: number | null;
  used_today: number;
  /** Null when the tier has no limit. */
  remaining: number | null;
}

export interface CampaignTemplate {
  template: TemplateDto;
  throughput_per_second: number;
}

/**
 * What a campaign asks of messaging: the template it would send, the number's tier capacity, holds on that
 * capacity, messaging's copy of the opt-outs, and what its messages cost so far. Messaging's refusals come back
 * as its AppError; messaging unreachable is 503 SERVICE_UNAVAILABLE. Never called inside a unit of work.
 */
export interface MessagingPort {
  campaignTemplate(
    tenantId: number,
    accountId: string,
    name: string,
    language?: string,
  ): Promise<CampaignTemplate>;
  capacity(tenantId: number, accountId: string): Promise<Capacity>;
  /** Holds up to `count` slots for `reference` (replacing its earlier hold); all or nothing unless `partial`. */
  reserve(
    tenantId: number,
    accountId: string,
    reference: string,
    count: number,
    partial: boolean,
  ): Promise<{ granted: number; capacity: Capacity }>;
  release(tenantId: number, accountId: string, reference: string): Promise<void>;
  /** Sets messaging's copy of one opt-out, which its single MARKETING sends are checked against. */
  setOptOut(change: OptOutChange): Promise<void>;
  /** What a campaign's messages cost so far in `currency` (the sum of their costs, 0 before any is priced). */
  campaignCost(tenantId: number, campaignId: string, currency: string): Promise<number>;
}
