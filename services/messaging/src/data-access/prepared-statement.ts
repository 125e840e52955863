import { EntityManager, type DataSource } from 'typeorm';

/** The part of a pg client (or pool) that runs a statement. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a hot statement (a text marked by `prepared`, libs/platform) straight on the pg connection or pool,
 * without a TypeORM query runner around it: the send path's insert runs once per message, and a query runner
 * cost about as much as the statement. Inside a transaction it goes out on the transaction's connection.
 */
export async function preparedRows<T>(
  db: DataSource | EntityManager,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const manager = db instanceof EntityManager ? db : undefined;
  const connection = manager?.queryRunner
    ? ((await manager.queryRunner.connect()) as Queryable)
    : // TypeORM's PostgreSQL driver keeps its pg pool as `master`.
      ((manager?.connection ?? (db as DataSource)).driver as unknown as { master: Queryable }).master;
  return (await connection.query(text, values)).rows as T[];
}
