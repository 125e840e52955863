import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order of a tenant's opt-out changes. Each change takes the next value after its row operation, which holds
 * the row's lock, so two changes of one phone get their versions in the order they commit; messaging's copy keeps
 * the highest it has seen and ignores older ones, whichever way the event and the direct call arrive.
 */
export class OptOutVersions1764100000002 implements MigrationInterface {
  name = 'OptOutVersions1764100000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE SEQUENCE campaign.opt_out_versions AS bigint');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP SEQUENCE campaign.opt_out_versions');
  }
}
