import { sqlMigration } from '@bm/platform';

/**
 * The opt-out copy keeps the version of the last change applied per phone, and a removal as a row with
 * opted_out false, so a change that arrives late (an event behind the campaign service's direct call, or two
 * events out of order) cannot undo a newer one.
 */
export const VersionedOptOuts1763900000006 = sqlMigration('VersionedOptOuts1763900000006', {
  up: [
    `ALTER TABLE messaging.opt_outs
      ADD COLUMN opted_out boolean NOT NULL DEFAULT true,
      ADD COLUMN version bigint NOT NULL DEFAULT 0`,
  ],
  down: [
    'DELETE FROM messaging.opt_outs WHERE NOT opted_out',
    'ALTER TABLE messaging.opt_outs DROP COLUMN opted_out, DROP COLUMN version',
  ],
});
