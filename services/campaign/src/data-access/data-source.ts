import { createDataSource } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { CampaignConfig } from '../config';
import { CreateCampaign1764100000000 } from './migrations/1764100000000-create-campaign';
import { RecipientsWithoutPhoneIndex1764100000001 } from './migrations/1764100000001-recipients-without-phone-index';
import { OptOutVersions1764100000002 } from './migrations/1764100000002-opt-out-versions';
import { CampaignsTenantIndex1764100000010 } from './migrations/1764100000010-campaigns-tenant-index';
import { IdleWake1765200000000 } from './migrations/1765200000000-idle-wake';
import { RecipientCounts1765400000000 } from './migrations/1765400000000-recipient-counts';
import { CustomersByUserId1766000000000 } from './migrations/1766000000000-customers-by-user-id';
import { CampaignCost1766100000000 } from './migrations/1766100000000-campaign-cost';
import { CustomerChoices1766400000000 } from './migrations/1766400000000-customer-choices';
import { IdempotencyClaimTokens1766500000000 } from './migrations/1766500000000-idempotency-claim-tokens';

export const CAMPAIGN_SCHEMA = 'campaign';

/** The campaign service's data source: schema `campaign`, its own migrations table; repositories use SQL. */
export function createCampaignDataSource(config: CampaignConfig): DataSource {
  return createDataSource({
    url: config.DATABASE_URL,
    schema: CAMPAIGN_SCHEMA,
    entities: [],
    migrations: [
      CreateCampaign1764100000000,
      RecipientsWithoutPhoneIndex1764100000001,
      OptOutVersions1764100000002,
      CampaignsTenantIndex1764100000010,
      IdleWake1765200000000,
      RecipientCounts1765400000000,
      CustomersByUserId1766000000000,
      CampaignCost1766100000000,
      CustomerChoices1766400000000,
      IdempotencyClaimTokens1766500000000,
    ],
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'campaign',
  });
}
