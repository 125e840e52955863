import { Client } from 'pg';
import { uniqueSuffix } from '@bm/platform/testing';

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
 * A database of a test file's own beside the run's (`tag` in its name), for a test that changes what every file
 * shares, such as the schema's migrations: its URL at once, the database itself once `create` answered.
 */
export function scratchDatabase(tag: string) {
  const name = `${process.env.TEST_DATABASE ?? 'bm_test_local'}_${tag}_${uniqueSuffix()}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    create: () => admin(`CREATE DATABASE "${name}"`),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
