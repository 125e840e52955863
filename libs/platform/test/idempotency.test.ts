import type { DataSource } from 'typeorm';
import {
  addIdempotencyClaimToken,
  AppError,
  commonEnvSchema,
  createDataSource,
  createIdempotencyTable,
  IdempotencyStore,
  loadConfig,
  requestHash,
  withTransaction,
  type CommonConfig,
} from '@bm/platform';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';

/*
 * Idempotency-Key claims (CONTRACT.md, IDEMPOTENCY_KEY_CONFLICT; issue 33, a crash costs seconds): a replay answers
 * the first answer; a claim whose request's process died is taken over after a few seconds, not a minute; and
 * whichever of two requests with one key wins, the key creates one thing.
 */
const config = loadConfig<CommonConfig>(commonEnvSchema, testEnv());
const schema = `idem_${uniqueSuffix().replace(/\W/g, '_')}`.toLowerCase();
const STALE_MS = 300;
let ds: DataSource;
let store: IdempotencyStore;

beforeAll(async () => {
  ds = createDataSource({ url: config.DATABASE_URL, schema, entities: [], migrations: [], poolSize: 4 });
  await ds.initialize();
  await ds.query(`CREATE SCHEMA ${schema}`);
  const runner = ds.createQueryRunner();
  await createIdempotencyTable(runner, schema);
  await addIdempotencyClaimToken(runner, schema);
  await runner.release();
  await ds.query(`CREATE TABLE ${schema}.things (key text NOT NULL, made_by text NOT NULL)`);
  store = new IdempotencyStore(ds, schema, STALE_MS);
});
afterAll(async () => {
  await ds.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await ds.destroy();
});

const things = async (key: string) => {
  const rows: Array<{ made_by: string }> = await ds.query(
    `SELECT made_by FROM ${schema}.things WHERE key = $1`,
    [key],
  );
  return rows.map((r) => r.made_by);
};

/** A request with the key: creates a thing made by `by` and records 201, after `before` resolves. */
const request = (
  key: string,
  by: string,
  before: Promise<void> = Promise.resolve(),
  body: object = { a: 1 },
) =>
  store.run<{ by: string }>(1, key, body, async (record) => {
    await before;
    return withTransaction(ds, async (tx) => {
      await tx.query(`INSERT INTO ${schema}.things VALUES ($1, $2)`, [key, by]);
      await record(tx, 201, { by });
      return { status: 201, body: { by } };
    });
  });

const codeOf = (err: unknown) => (err instanceof AppError ? err.code : String(err));

describe('Idempotency-Key claims', () => {
  it('when a request is replayed, then it answers the first answer and creates nothing more', async () => {
    const key = `k-${uniqueSuffix()}`;
    expect(await request(key, 'first')).toMatchObject({
      status: 201,
      body: { by: 'first' },
      replayed: false,
    });
    expect(await request(key, 'second')).toMatchObject({
      status: 201,
      body: { by: 'first' },
      replayed: true,
    });
    expect(await things(key)).toEqual(['first']);
    await expect(request(key, 'third', undefined, { a: 2 })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_CONFLICT',
    });
  });

  it('when the first request is still working, then a second one is 409 until its claim is stale', async () => {
    const key = `k-${uniqueSuffix()}`;
    let finish!: () => void;
    const first = request(key, 'first', new Promise<void>((r) => (finish = r)));
    await new Promise((r) => setTimeout(r, 50));
    await expect(request(key, 'second')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_CONFLICT' });
    finish();
    expect(await first).toMatchObject({ body: { by: 'first' } });
    expect(await things(key)).toEqual(['first']);
  });

  it('when a claim was left by a request whose process died, then the retry takes it over within seconds', async () => {
    const key = `k-${uniqueSuffix()}`;
    // What a killed process leaves: a claim, committed, with no answer and nothing created.
    await ds.query(
      `INSERT INTO ${schema}.idempotency_keys (tenant_id, key, request_hash, claim_token)
       SELECT 1, $1, request_hash, gen_random_uuid() FROM (SELECT $2::text AS request_hash) h`,
      [key, requestHash({ a: 1 })],
    );
    await new Promise((r) => setTimeout(r, STALE_MS + 50));
    expect(await request(key, 'retry')).toMatchObject({
      status: 201,
      body: { by: 'retry' },
      replayed: false,
    });
    expect(await things(key)).toEqual(['retry']);
  });

  it('when a slow request’s claim was taken over, then its own work rolls back: the key made one thing', async () => {
    const key = `k-${uniqueSuffix()}`;
    let finish!: () => void;
    const slow = request(key, 'slow', new Promise<void>((r) => (finish = r)));
    await new Promise((r) => setTimeout(r, STALE_MS + 50));
    expect(await request(key, 'retry')).toMatchObject({ body: { by: 'retry' }, replayed: false });
    finish();
    expect(codeOf(await slow.catch((err: unknown) => err))).toBe('IDEMPOTENCY_KEY_CONFLICT');
    expect(await things(key)).toEqual(['retry']);
    expect(await request(key, 'later')).toMatchObject({ body: { by: 'retry' }, replayed: true });
  });
});
