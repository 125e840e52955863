import {
  MESSAGING_ENDPOINTS,
  type CampaignTemplateDto,
  type CapacityReservationDto,
  type TierCapacityDto,
} from '@bm/contracts';
import type { InternalClient } from '@bm/platform';
import type { OptOutChange } from './opt-out.repository';

export type Capacity = TierCapacityDto;
export type CampaignTemplate = CampaignTemplateDto;

/**
 * Messaging's internal endpoints a campaign needs: the template it would send, the number's tier capacity,
 * holds on that capacity, and messaging's copy of the opt-outs. Messaging's own refusals (NO_ACTIVE_ACCOUNT,
 * TEMPLATE_NOT_FOUND, …) come back as the same AppError; messaging unreachable is 503 SERVICE_UNAVAILABLE, so
 * nothing is half-done (see InternalClient).
 */
export class MessagingClient {
  constructor(private readonly client: InternalClient) {}

  campaignTemplate(
    tenantId: number,
    accountId: string,
    name: string,
    language?: string,
  ): Promise<CampaignTemplate> {
    return this.client.call(MESSAGING_ENDPOINTS.campaignTemplate, {
      tenantId,
      params: { id: accountId },
      input: { name, language },
    });
  }

  capacity(tenantId: number, accountId: string): Promise<Capacity> {
    return this.client.call(MESSAGING_ENDPOINTS.capacity, { tenantId, params: { id: accountId } });
  }

  /** Holds up to `count` slots for `reference` (replacing its earlier hold); all or nothing unless `partial`. */
  reserve(
    tenantId: number,
    accountId: string,
    reference: string,
    count: number,
    partial: boolean,
  ): Promise<CapacityReservationDto> {
    return this.client.call(MESSAGING_ENDPOINTS.reserveCapacity, {
      tenantId,
      params: { id: accountId },
      input: { reference, count, partial },
    });
  }

  async release(tenantId: number, accountId: string, reference: string): Promise<void> {
    await this.client.call(MESSAGING_ENDPOINTS.releaseCapacity, {
      tenantId,
      params: { id: accountId, reference },
    });
  }

  /** Sets messaging's copy of one opt-out, which its single MARKETING sends are checked against. */
  async setOptOut(change: OptOutChange): Promise<void> {
    await this.client.call(MESSAGING_ENDPOINTS.setOptOutCopy, {
      tenantId: change.tenantId,
      params: { phone: change.phone },
      input: { opted_out: change.optedOut, version: change.version },
    });
  }
}
