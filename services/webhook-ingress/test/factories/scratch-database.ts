import { runMigrations } from '@bm/platform';
import { testEnv } from '@bm/platform/testing';
import { scratchDatabase } from '../../../../test/support/scratch-database';
import { loadIngressConfig } from '../../src/config';
import { createIngressDataSource } from '../../src/data-access/data-source';

/**
 * A database of this test file's own, with the ingress migrations applied. Any ingress worker splits any
 * pending event it finds, so two files sharing the run's database would split each other's events against
 * their own fake of messaging.
 */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const database = scratchDatabase('ing');
  await database.create();
  const dataSource = createIngressDataSource(loadIngressConfig(testEnv({ DATABASE_URL: database.url })));
  await runMigrations(dataSource);
  await dataSource.destroy();
  return { url: database.url, drop: database.drop };
}
