import { EntityManager, type DataSource } from 'typeorm';

/** The part of a pg client (or pool) that runs a named statement. */
interface NamedQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a statement as a named prepared statement of the connection it goes out on: PostgreSQL parses it once per
 * connection and, after a few runs, plans it once too (pg remembers the name per connection). TypeORM's `query()`
 * sends every statement unnamed, parsed and planned on each call: for a statement as long as the send's insert
 * that cost the backend about as much as running it. Inside a transaction it goes out on the transaction's
 * connection. The statement must name its result columns (no `*`): a column added while a connection holds the
 * plan would otherwise fail it with "cached plan must not change result type".
 */
export async function preparedRows<T>(
  db: DataSource | EntityManager,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const manager = db instanceof EntityManager ? db : undefined;
  const connection = manager?.queryRunner
    ? ((await manager.queryRunner.connect()) as NamedQueryable)
    : // TypeORM's PostgreSQL driver keeps its pg pool as `master`.
      ((manager?.connection ?? (db as DataSource)).driver as unknown as { master: NamedQueryable }).master;
  return (await connection.query({ name, text, values })).rows as T[];
}
