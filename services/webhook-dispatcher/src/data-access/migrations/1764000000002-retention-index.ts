import { sqlMigration } from '@bm/platform';

/** The retention task finds finished deliveries by age without scanning the table. */
export const RetentionIndex1764000000002 = sqlMigration('RetentionIndex1764000000002', {
  up: [
    `CREATE INDEX deliveries_finished_idx ON dispatcher.deliveries (created_at) WHERE status <> 'pending'`,
  ],
  down: [`DROP INDEX dispatcher.deliveries_finished_idx`],
});
