import { sqlMigration } from '@bm/platform';

/**
 * The order of a tenant's opt-out changes. Each change takes the next value after its row operation, which holds
 * the row's lock, so two changes of one phone get their versions in the order they commit; messaging's copy keeps
 * the highest it has seen and ignores older ones, whichever way the event and the direct call arrive.
 */
export const OptOutVersions1764100000002 = sqlMigration('OptOutVersions1764100000002', {
  up: ['CREATE SEQUENCE campaign.opt_out_versions AS bigint'],
  down: ['DROP SEQUENCE campaign.opt_out_versions'],
});
