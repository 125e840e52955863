import type { IdempotentRequests as Idempotency, RecordAnswer as Record } from '@bm/platform';
import type { Tx } from './unit-of-work.port';

/** Records the answer inside the work's own transaction, so a created resource and its replay commit together. */
export type RecordAnswer<T> = Record<T, Tx>;

/** Idempotency-Key handling: a replay with the same body answers the first answer and creates nothing. */
export type IdempotentRequests = Idempotency<Tx>;
