import { sqlMigration } from '@bm/platform';

/**
 * What a tenant's messages cost per day (UTC) and pricing category, for GET /api/v1/stats: the sum of the cost
 * changes recorded that day (a message is priced by its status reports; a later report that reprices it moves
 * its cost). Keyed by the writing backend (`shard`), as the message counters are: no two transactions update
 * one row, so the status path gains no lock waits. A reader sums the shards.
 */
export const MessageCostDaily1766000000005 = sqlMigration('MessageCostDaily1766000000005', {
  up: [
    `CREATE TABLE messaging.message_cost_daily (
      tenant_id integer NOT NULL,
      day timestamp NOT NULL,
      category text NOT NULL,
      currency text NOT NULL,
      shard integer NOT NULL,
      amount numeric(16, 4) NOT NULL,
      PRIMARY KEY (tenant_id, day, category, currency, shard)
    )`,
  ],
  down: ['DROP TABLE messaging.message_cost_daily'],
});
