import type { IdempotentAnswer } from '@bm/platform';
import type { Tx } from './unit-of-work.port';

/** Records the answer inside the work's own transaction, so a created resource and its replay commit together. */
export type RecordAnswer<T> = (tx: Tx, status: number, body: T) => Promise<void>;

/** Idempotency-Key handling: a replay with the same body answers the first answer and creates nothing. */
export interface IdempotentRequests {
  run<T>(
    tenantId: number,
    key: string | undefined,
    body: unknown,
    work: (record: RecordAnswer<T>) => Promise<{ status: number; body: T }>,
  ): Promise<IdempotentAnswer<T>>;
}
