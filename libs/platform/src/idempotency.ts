import { createHash } from 'node:crypto';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { Request, Response } from 'express';
import { AppError } from './errors';
import { queryRows } from './db/data-source';

/** Creates the `idempotency_keys` table in a service's schema (called from its migration). */
export async function createIdempotencyTable(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`CREATE TABLE "${schema}".idempotency_keys (
    tenant_id integer NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    status_code integer,
    response jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, key)
  )`);
}

/** A stable hash of a request body: the same JSON with keys in another order hashes the same. */
export function requestHash(body: unknown): string {
  const stable = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(stable)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(stable(body) ?? null))
    .digest('hex');
}

export interface IdempotentAnswer<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/** Records the answer inside the work's own transaction, so a created resource and its replay commit together. */
export type RecordAnswer<T, Tx = EntityManager> = (tx: Tx, status: number, body: T) => Promise<void>;

/** Idempotency-Key handling as a domain's port: the answer is recorded in the domain's own transaction type. */
export interface IdempotentRequests<Tx> {
  run<T>(
    tenantId: number,
    key: string | undefined,
    body: unknown,
    work: (record: RecordAnswer<T, Tx>) => Promise<{ status: number; body: T }>,
  ): Promise<IdempotentAnswer<T>>;
}

/**
 * Adds the claim's fencing token to a service's `idempotency_keys` (called from its migration): claims made before
 * it have none, and are taken over like any other.
 */
export async function addIdempotencyClaimToken(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`ALTER TABLE "${schema}".idempotency_keys ADD COLUMN claim_token uuid`);
}

interface KeyRow {
  request_hash: string;
  status_code: number | null;
  response: unknown;
  created_at: Date;
  claim_token: string | null;
}

const inFlight = () =>
  new AppError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still in flight');

/**
 * Idempotency-Key handling shared by the services that create things: a replay with the same body returns the
 * first answer and creates nothing; another body, or the first request still in flight, is 409
 * IDEMPOTENCY_KEY_CONFLICT.
 *
 * A claim is committed before the work, and its answer is recorded in the work's own transaction. A claim left
 * without an answer for `staleAfterMs` (its request's process was killed, say: the client's retry must not wait
 * long) is taken over by the next request with the key, under a new token. The answer is recorded only under the
 * claim's own token, so a request whose claim was taken over while it was still working rolls its work back
 * instead of committing it: the key creates one thing whichever request wins.
 */
export class IdempotencyStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly staleAfterMs = 5_000,
  ) {}

  private get table(): string {
    return `"${this.schema}".idempotency_keys`;
  }

  async run<T>(
    tenantId: number,
    key: string | undefined,
    body: unknown,
    work: (record: RecordAnswer<T>) => Promise<{ status: number; body: T }>,
  ): Promise<IdempotentAnswer<T>> {
    if (key === undefined) return { ...(await work(async () => {})), replayed: false };
    const hash = requestHash(body);
    let token: string | undefined;
    for (let attempt = 0; token === undefined; attempt += 1) {
      const claimed = await this.claim(tenantId, key, hash);
      if (typeof claimed === 'string') {
        token = claimed;
        break;
      }
      if (claimed.request_hash !== hash) {
        throw new AppError(
          'IDEMPOTENCY_KEY_CONFLICT',
          'This Idempotency-Key was used with a different request',
        );
      }
      if (claimed.status_code !== null) {
        return { status: claimed.status_code, body: claimed.response as T, replayed: true };
      }
      if (Date.now() - claimed.created_at.getTime() < this.staleAfterMs || attempt === 1) throw inFlight();
      token = await this.takeOver(tenantId, key, claimed.claim_token);
    }
    const mine = token;
    const record: RecordAnswer<T> = async (tx, status, answer) => {
      const recorded = await queryRows(
        tx,
        `UPDATE ${this.table} SET status_code = $3, response = $4
          WHERE tenant_id = $1 AND key = $2 AND claim_token = $5 RETURNING 1`,
        [tenantId, key, status, JSON.stringify(answer), mine],
      );
      // Taken over by a later request with the key: this one's work rolls back with its transaction.
      if (recorded.length === 0) throw inFlight();
    };
    try {
      return { ...(await work(record)), replayed: false };
    } catch (err) {
      // Nothing was created (the work's transaction rolled back): the client may retry under the same key.
      await this.dataSource.query(
        `DELETE FROM ${this.table} WHERE tenant_id = $1 AND key = $2 AND status_code IS NULL AND claim_token = $3`,
        [tenantId, key, mine],
      );
      throw err;
    }
  }

  /** A new claim's token, or the key's row when it is claimed already. */
  private async claim(tenantId: number, key: string, hash: string): Promise<string | KeyRow> {
    // A claim released between our insert and our read leaves nothing to read: then insert again.
    for (;;) {
      const inserted: Array<{ claim_token: string }> = await this.dataSource.query(
        `INSERT INTO ${this.table} (tenant_id, key, request_hash, claim_token)
         VALUES ($1, $2, $3, gen_random_uuid()) ON CONFLICT DO NOTHING RETURNING claim_token`,
        [tenantId, key, hash],
      );
      if (inserted.length > 0) return inserted[0].claim_token;
      const rows: KeyRow[] = await this.dataSource.query(
        `SELECT request_hash, status_code, response, created_at, claim_token FROM ${this.table}
            WHERE tenant_id = $1 AND key = $2`,
        [tenantId, key],
      );
      if (rows[0]) return rows[0];
    }
  }

  /** The stale claim under a new token, or undefined when another request changed it first. */
  private async takeOver(tenantId: number, key: string, stale: string | null): Promise<string | undefined> {
    const rows = await queryRows<{ claim_token: string }>(
      this.dataSource,
      `UPDATE ${this.table} SET claim_token = gen_random_uuid(), created_at = now()
        WHERE tenant_id = $1 AND key = $2 AND status_code IS NULL AND claim_token IS NOT DISTINCT FROM $3
        RETURNING claim_token`,
      [tenantId, key, stale],
    );
    return rows[0]?.claim_token;
  }
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The request's `Idempotency-Key` header, or undefined; 422 when it is not 1-255 printable ASCII characters. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', {
      errors: [
        { field: 'Idempotency-Key', message: 'Idempotency-Key must be 1-255 printable ASCII characters' },
      ],
    });
  }
  return key;
}

/** Answers an idempotent POST: the recorded status and body, marked `Idempotent-Replayed` when it is a replay. */
export function sendIdempotentAnswer(res: Response, answer: IdempotentAnswer<unknown>): void {
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(answer.status).json(answer.body);
}
