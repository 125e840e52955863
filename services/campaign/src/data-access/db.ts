import type { DataSource, EntityManager } from 'typeorm';

/** Where a repository runs its SQL: the pool, or one transaction's connection. */
export type Db = DataSource | EntityManager;
