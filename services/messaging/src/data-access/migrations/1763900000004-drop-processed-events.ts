import { sqlMigration } from '@bm/platform';

/** Every consumer dedupes on its own key (message id, status rules, campaign recipient), so this table went unused. */
export const DropProcessedEvents1763900000004 = sqlMigration('DropProcessedEvents1763900000004', {
  up: ['DROP TABLE messaging.processed_events'],
  down: [
    `CREATE TABLE messaging.processed_events (
      message_id text PRIMARY KEY,
      processed_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
});
