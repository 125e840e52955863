import { Client } from 'pg';

/** What `migrateUnlessApplied` needs of a TypeORM data source (kept structural: this entry point has no TypeORM). */
interface MigratableDataSource {
  options: object;
  isInitialized: boolean;
  destroy(): Promise<void>;
}

/**
 * Whether every migration the data source lists is already recorded in its schema's migrations table. Read with one
 * plain query, without initializing the data source: a test file whose database a file before it already migrated
 * (every file after the first in a run) skips TypeORM's start-up and its migration pass. Anything unexpected (a
 * migration given as a path, no schema, no table yet) answers false, so the caller migrates as before.
 */
export async function migrationsApplied(dataSource: MigratableDataSource): Promise<boolean> {
  const options = dataSource.options as { url?: string; schema?: string; migrations?: unknown };
  const listed = Array.isArray(options.migrations) ? (options.migrations as unknown[]) : undefined;
  if (!options.url || !options.schema || !listed) return false;
  const names: string[] = [];
  for (const migration of listed) {
    if (typeof migration !== 'function' || !migration.name) return false;
    names.push(migration.name);
  }
  const client = new Client({ connectionString: options.url });
  await client.connect();
  try {
    const table = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
      `"${options.schema}".migrations`,
    ]);
    if (!table.rows[0].found) return false;
    const applied = await client.query<{ name: string }>(
      `SELECT name FROM "${options.schema}".migrations WHERE name = ANY($1::text[])`,
      [names],
    );
    return new Set(applied.rows.map((r) => r.name)).size === new Set(names).size;
  } finally {
    await client.end();
  }
}

/**
 * Applies the data source's pending migrations with `run` (the service's own `runMigrations`), unless all are
 * applied already, then closes the data source. Migrations stay serialized by `run`'s lock when they do run.
 */
export async function migrateUnlessApplied<D extends MigratableDataSource>(
  dataSource: D,
  run: (dataSource: D) => Promise<unknown>,
): Promise<void> {
  try {
    if (!(await migrationsApplied(dataSource))) await run(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}
