import type { DataSource, EntityManager } from 'typeorm';
import { withTransaction } from '@bm/platform';
import type { Tx, UnitOfWork } from '../domain/ingress-ports';

/** The domain's unit of work on the service's data source: a transaction, and savepoints inside it. */
export class DatabaseUnitOfWork implements UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, work);
  }

  async isolated<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
    const db = tx as EntityManager;
    await db.query('SAVEPOINT isolated');
    let result: T;
    try {
      result = await work();
    } catch (err) {
      // When even the rollback fails (the connection is gone), the transaction fails whole: the first cause stands.
      await db.query('ROLLBACK TO SAVEPOINT isolated').catch(() => undefined);
      throw err;
    }
    await db.query('RELEASE SAVEPOINT isolated');
    return result;
  }
}
