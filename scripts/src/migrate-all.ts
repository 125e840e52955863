import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { builtServices, ROOT } from './services';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/business_messaging';

/** Creates the database named by DATABASE_URL when it does not exist yet (local runs only need a server). */
export async function ensureDatabase(
  databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** Runs every built service's migrations, one service after another. */
export function migrateAll(env: NodeJS.ProcessEnv = process.env): void {
  for (const service of builtServices().filter((s) => s.migrates)) {
    const result = spawnSync(process.execPath, [join(ROOT, service.dir, 'dist', 'migrate.js')], {
      env,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`migrations of ${service.name} failed`);
  }
}

if (require.main === module) {
  ensureDatabase()
    .then(() => migrateAll())
    .then(() => process.stdout.write('migrations applied\n'))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
