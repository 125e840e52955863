import type { DataSource, EntityManager } from 'typeorm';
import { withSavepoint, withTransaction } from '@bm/platform';
import type { Tx, UnitOfWork } from '../domain/ingress-ports';

/** The domain's unit of work on the service's data source: a transaction, and savepoints inside it. */
export class DatabaseUnitOfWork implements UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, work);
  }

  isolated<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
    return withSavepoint(tx as EntityManager, 'isolated', work);
  }
}
