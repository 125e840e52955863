import { createDataSource, OutboxEventEntity } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { IngressConfig } from '../config';
import { CreateIngress1764100000000 } from './migrations/1764100000000-create-ingress';
import { TemplateReviewNotifications1764100000001 } from './migrations/1764100000001-template-review-notifications';
import { PerItemIsolation1764100000002 } from './migrations/1764100000002-per-item-isolation';
import { IdleWake1765200000000 } from './migrations/1765200000000-idle-wake';
import { WakeOnPending1765300000000 } from './migrations/1765300000000-wake-on-pending';
import { ItemsSentOnReceipt1767200000000 } from './migrations/1767200000000-items-sent-on-receipt';

export const INGRESS_SCHEMA = 'ingress';

/** The webhook-ingress data source: schema `ingress`, its own migrations table. */
export function createIngressDataSource(config: IngressConfig): DataSource {
  return createDataSource({
    url: config.DATABASE_URL,
    schema: INGRESS_SCHEMA,
    entities: [OutboxEventEntity],
    migrations: [
      CreateIngress1764100000000,
      TemplateReviewNotifications1764100000001,
      PerItemIsolation1764100000002,
      IdleWake1765200000000,
      WakeOnPending1765300000000,
      ItemsSentOnReceipt1767200000000,
    ],
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'webhook-ingress',
  });
}
