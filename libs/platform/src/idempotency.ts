import { createHash } from 'node:crypto';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { Request, Response } from 'express';
import { AppError } from './errors';

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
 * Idempotency-Key handling shared by the services that create things: a replay with the same body returns the
 * first answer and creates nothing; another body, or the first request still in flight, is 409
 * IDEMPOTENCY_KEY_CONFLICT. A claim left by a crashed request (no answer after `staleAfterMs`) is taken over.
 */
export class IdempotencyStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly staleAfterMs = 60_000,
  ) {}

  async run<T>(
    tenantId: number,
    key: string | undefined,
    body: unknown,
    work: (record: RecordAnswer<T>) => Promise<{ status: number; body: T }>,
  ): Promise<IdempotentAnswer<T>> {
    if (key === undefined) return { ...(await work(async () => {})), replayed: false };
    const hash = requestHash(body);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const existing = await this.claim(tenantId, key, hash);
      if (existing === undefined) break;
      if (existing.request_hash !== hash) {
        throw new AppError(
          'IDEMPOTENCY_KEY_CONFLICT',
          'This Idempotency-Key was used with a different request',
        );
      }
      if (existing.status_code !== null) {
        return { status: existing.status_code, body: existing.response as T, replayed: true };
      }
      if (Date.now() - existing.created_at.getTime() < this.staleAfterMs || attempt === 1) {
        throw new AppError(
          'IDEMPOTENCY_KEY_CONFLICT',
          'A request with this Idempotency-Key is still in flight',
        );
      }
      await this.release(tenantId, key);
    }
    const record: RecordAnswer<T> = async (tx, status, answer) => {
      await tx.query(
        `UPDATE "${this.schema}".idempotency_keys SET status_code = $3, response = $4 WHERE tenant_id = $1 AND key = $2`,
        [tenantId, key, status, JSON.stringify(answer)],
      );
    };
    try {
      return { ...(await work(record)), replayed: false };
    } catch (err) {
      // Nothing was created (the work's transaction rolled back): the client may retry under the same key.
      await this.release(tenantId, key);
      throw err;
    }
  }

  private async claim(
    tenantId: number,
    key: string,
    hash: string,
  ): Promise<
    { request_hash: string; status_code: number | null; response: unknown; created_at: Date } | undefined
  > {
    // A claim released between our insert and our read leaves nothing to read: then insert again.
    for (;;) {
      const inserted: unknown[] = await this.dataSource.query(
        `INSERT INTO "${this.schema}".idempotency_keys (tenant_id, key, request_hash) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING 1`,
        [tenantId, key, hash],
      );
      if (inserted.length > 0) return undefined;
      const rows: Array<{
        request_hash: string;
        status_code: number | null;
        response: unknown;
        created_at: Date;
      }> = await this.dataSource.query(
        `SELECT request_hash, status_code, response, created_at FROM "${this.schema}".idempotency_keys
            WHERE tenant_id = $1 AND key = $2`,
        [tenantId, key],
      );
      if (rows[0]) return rows[0];
    }
  }

  private async release(tenantId: number, key: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM "${this.schema}".idempotency_keys WHERE tenant_id = $1 AND key = $2 AND status_code IS NULL`,
      [tenantId, key],
    );
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
