/**
 * An open transaction. The domain only hands it on to the ports that run statements in it: what it is (a
 * TypeORM EntityManager today) belongs to data access, and the domain can call nothing on it.
 */
export interface Tx {
  readonly query: unknown;
}

/** What a savepoint gave back: the work's value, or the error that undid its writes. */
export type SavepointOutcome<T> = { done: true; value: T } | { done: false; error: unknown };

/** Transactions, explicit: a state change and its outbox events commit or roll back together. */
export interface UnitOfWork {
  /** Runs `work` in one transaction. Never call the upstream inside it: a transaction must not wait on HTTP. */
  inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `work` behind a savepoint of `tx`: when it throws, its writes are undone, the transaction goes on and
   * the error is handed back; a failure of the savepoint itself still ends the transaction.
   */
  inSavepoint<T>(tx: Tx, name: string, work: () => Promise<T>): Promise<SavepointOutcome<T>>;
}
