import { sqlMigration } from '@bm/platform';

/**
 * Items of a body that could not be published are kept with their reason (`skipped_items`), and failures that
 * will not change on retry are counted apart from outages (`permanent_failures`): past a limit the event is
 * `failed` and no longer tried.
 */
export const PerItemIsolation1764100000002 = sqlMigration('PerItemIsolation1764100000002', {
  up: [
    `ALTER TABLE ingress.inbound_events
      ADD COLUMN skipped_items jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN permanent_failures integer NOT NULL DEFAULT 0`,
  ],
  down: [
    `UPDATE ingress.inbound_events SET outcome = 'pending' WHERE outcome = 'failed'`,
    `ALTER TABLE ingress.inbound_events DROP COLUMN skipped_items, DROP COLUMN permanent_failures`,
  ],
});
