import 'reflect-metadata';
import { DataSource, type EntityManager, type MixedList } from 'typeorm';
import type { Logger } from '../logger';
import { PipelinedBeginClient } from './pipelined-begin';

export interface DataSourceOptions {
  url: string;
  /** The service's own schema; its migrations table lives in it too. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  /** Per-statement limit so a stuck query cannot hold a request forever. */
  statementTimeoutMs?: number;
  applicationName?: string;
}

/** A TypeORM data source bound to one schema, file migrations only, never `synchronize`. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: options.applicationName,
    extra: {
      // Sends each transaction's BEGIN with its first statement: one round trip less per transaction.
      Client: PipelinedBeginClient,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 3_000,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
      idle_in_transaction_session_timeout: 60_000,
    },
  });
}

/** Creates the schema when missing and applies pending migrations; safe to run from several pods at once. */
export async function runMigrations(dataSource: DataSource, logger?: Logger): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema;
  if (!schema) throw new Error('data source has no schema');
  if (!dataSource.isInitialized) await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    // One migrator at a time per schema: concurrent Jobs or replicas wait instead of racing.
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    try {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      const names = applied.map((m) => m.name);
      if (names.length > 0) logger?.info('migrations applied', { schema, migrations: names });
      return names;
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]);
    }
  } finally {
    await runner.release();
  }
}

/** Runs fn in one database transaction: the state change and its outbox event commit or roll back together. */
export function withTransaction<T>(
  dataSource: DataSource,
  fn: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  return dataSource.transaction(fn);
}

/**
 * Runs work under a savepoint of the transaction tx: its writes are undone alone when it throws (and the error
 * rethrown), kept when it succeeds; the rest of the transaction goes on either way. When even the rollback fails
 * (the connection is gone) the transaction fails whole, and the work's own error is the one thrown.
 */
export async function withSavepoint<T>(tx: EntityManager, name: string, work: () => Promise<T>): Promise<T> {
  await tx.query(`SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await work();
  } catch (err) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    throw err;
  }
  await tx.query(`RELEASE SAVEPOINT ${name}`);
  return result;
}

/** A cheap liveness query for health checks. */
export async function pingDatabase(dataSource: DataSource): Promise<void> {
  await dataSource.query('SELECT 1');
}

/**
 * How far back a periodic task's next-due lookup still counts stored work as due (SQL interval): a pass that ran
 * a moment before the work fell due, and planned its sleep a moment after, comes back at its interval instead of
 * sleeping out its idle back-off; work missed for longer is left to the back-off's slower passes.
 */
export const JUST_DUE = "interval '1 minute'";

/**
 * Runs SQL and returns its rows whatever the statement: TypeORM answers UPDATE and DELETE with
 * `[rows, affectedCount]` but SELECT and INSERT with the rows alone.
 */
export async function queryRows<T>(
  db: { query: (sql: string, params?: unknown[]) => Promise<unknown> },
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const result = await db.query(sql, params);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}
