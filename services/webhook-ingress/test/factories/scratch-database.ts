import { Client } from 'pg';
import { runMigrations } from '@bm/platform';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';
import { loadIngressConfig } from '../../src/config';
import { createIngressDataSource } from '../../src/data-access/data-source';

const ADMIN_URL = process.env.TEST_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A database of this test file's own, with the ingress migrations applied. Any ingress worker splits any
 * pending event it finds, so two files sharing the run's database would split each other's events against
 * their own fake of messaging.
 */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${process.env.TEST_DATABASE ?? 'bm_test_local'}_ing_${uniqueSuffix()}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataSource = createIngressDataSource(loadIngressConfig(testEnv({ DATABASE_URL: url.toString() })));
  await runMigrations(dataSource);
  await dataSource.destroy();
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
