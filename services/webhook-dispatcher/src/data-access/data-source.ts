import { createDataSource } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { DispatcherConfig } from '../config';
import { CreateDispatcher1764000000000 } from './migrations/1764000000000-create-dispatcher';
import { ClaimByEndpoint1764000000001 } from './migrations/1764000000001-claim-by-endpoint';
import { RetentionIndex1764000000002 } from './migrations/1764000000002-retention-index';
import { EventTraceparent1764000000003 } from './migrations/1764000000003-event-traceparent';
import { RecordAndClaim1764000000004 } from './migrations/1764000000004-record-and-claim';
import { StoreAndLease1764000000005 } from './migrations/1764000000005-store-and-lease';
import { EndpointsPerTenant1766740000000 } from './migrations/1766740000000-endpoints-per-tenant';
import { DeliveryWrittenOnce1767100000000 } from './migrations/1767100000000-delivery-written-once';
import { PlansByIndex1767200000000 } from './migrations/1767200000000-plans-by-index';

export const DISPATCHER_SCHEMA = 'dispatcher';

/** The dispatcher's data source: schema `dispatcher`, its own migrations table; repositories use SQL. */
export function createDispatcherDataSource(config: DispatcherConfig): DataSource {
  return createDataSource({
    url: config.DATABASE_URL,
    schema: DISPATCHER_SCHEMA,
    entities: [],
    migrations: [
      CreateDispatcher1764000000000,
      ClaimByEndpoint1764000000001,
      RetentionIndex1764000000002,
      EventTraceparent1764000000003,
      RecordAndClaim1764000000004,
      StoreAndLease1764000000005,
      EndpointsPerTenant1766740000000,
      DeliveryWrittenOnce1767100000000,
      PlansByIndex1767200000000,
    ],
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'webhook-dispatcher',
  });
}
