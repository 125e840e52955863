import type { EntityManager } from 'typeorm';

/**
 * Runs `work` behind a savepoint of the caller's transaction. When it throws, its writes are undone, the
 * transaction goes on, and the error is handed back for the caller to report; a failure of the savepoint itself
 * still ends the transaction.
 */
export async function inSavepoint<T>(
  tx: EntityManager,
  name: string,
  work: () => Promise<T>,
): Promise<{ done: true; value: T } | { done: false; error: unknown }> {
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const value = await work();
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return { done: true, value };
  } catch (error) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    return { done: false, error };
  }
}
