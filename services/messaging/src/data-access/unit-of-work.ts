import { type IdempotencyStore, withSavepoint, withTransaction } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { IdempotentRequests } from '../domain/ports/idempotency.port';
import type { SavepointOutcome, Tx, UnitOfWork } from '../domain/ports/unit-of-work.port';

/** The domain's unit of work on the service's data source: a transaction is an EntityManager. */
export class TransactionRunner implements UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, work);
  }

  async inSavepoint<T>(
    tx: EntityManager,
    name: string,
    work: () => Promise<T>,
  ): Promise<SavepointOutcome<T>> {
    try {
      return { done: true, value: await withSavepoint(tx, name, work) };
    } catch (error) {
      return { done: false, error };
    }
  }
}

/** The platform's Idempotency-Key store as the domain's port: the answer is recorded in the domain's transaction. */
export function idempotentRequests(store: IdempotencyStore): IdempotentRequests {
  return {
    run: (tenantId, key, body, work) =>
      store.run(tenantId, key, body, (record) =>
        work((tx, status, answer) => record(tx as EntityManager, status, answer)),
      ),
  };
}
