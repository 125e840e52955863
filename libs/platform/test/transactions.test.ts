import type { DataSource } from 'typeorm';
import { commonEnvSchema, createDataSource, loadConfig, type CommonConfig } from '@bm/platform';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';

/*
 * The data source sends a transaction's BEGIN with its first statement (one round trip, not two). Whatever the
 * first statement, the transaction must stay one transaction: all of it commits, or none of it.
 */
const config = loadConfig<CommonConfig>(commonEnvSchema, testEnv());
const table = `tx_${uniqueSuffix().replace(/\W/g, '_')}`.toLowerCase();
let ds: DataSource;

beforeAll(async () => {
  ds = createDataSource({
    url: config.DATABASE_URL,
    schema: 'public',
    entities: [],
    migrations: [],
    poolSize: 2,
  });
  await ds.initialize();
  await ds.query(`CREATE TABLE ${table} (id int PRIMARY KEY, label text NOT NULL)`);
});
afterAll(async () => {
  await ds.query(`DROP TABLE IF EXISTS ${table}`);
  await ds.destroy();
});

const count = async (ids: number[]) =>
  Number((await ds.query(`SELECT count(*) AS n FROM ${table} WHERE id = ANY($1)`, [ids]))[0].n);
const txid = async (tx: { query: DataSource['query'] }, params?: unknown[]) =>
  String((await tx.query(`SELECT txid_current() AS x${params ? ', $1::int AS p' : ''}`, params))[0].x);

describe('transactions', () => {
  it('when the first statement has parameters, then every statement runs in the one transaction', async () => {
    const ids = await ds.transaction(async (tx) => {
      const first = await txid(tx, [1]);
      await tx.query(`INSERT INTO ${table} VALUES ($1, 'a')`, [1]);
      return [first, await txid(tx)];
    });
    expect(ids[0]).toBe(ids[1]);
    expect(await count([1])).toBe(1);
  });

  it('when the work throws after its first statement, then the first statement is rolled back', async () => {
    await expect(
      ds.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES ($1, 'b')`, [2]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await count([2])).toBe(0);
  });

  it('when the first statement fails, then the error is its own and nothing stays open', async () => {
    await ds.query(`INSERT INTO ${table} VALUES ($1, 'c')`, [3]);
    const failed = await ds
      .transaction((tx) => tx.query(`INSERT INTO ${table} VALUES ($1, 'dup')`, [3]))
      .catch((err: { driverError?: { code?: string } }) => err.driverError?.code);
    expect(failed).toBe('23505');
    for (let i = 0; i < 4; i += 1) {
      const [row] = await ds.query('SELECT txid_current_if_assigned() AS x, $1::int AS p', [i]);
      expect(row.x).toBeNull();
    }
  });

  it('when the first statement has no parameters and holds several, then they run in the transaction', async () => {
    await expect(
      ds.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES (4, 'd'); INSERT INTO ${table} VALUES (5, 'e')`);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await count([4, 5])).toBe(0);
  });

  it('when statements are issued together, then they share the transaction', async () => {
    const ids = await ds.transaction((tx) => Promise.all([txid(tx), txid(tx, [1]), txid(tx)]));
    expect(new Set(ids).size).toBe(1);
  });

  it('when a transaction runs no statement, then it answers and leaves the connection idle', async () => {
    expect(await ds.transaction(() => Promise.resolve(42))).toBe(42);
    const [row] = await ds.query('SELECT txid_current_if_assigned() AS x, $1::int AS p', [1]);
    expect(row.x).toBeNull();
  });

  it('when an isolation level is asked for, then the transaction has it', async () => {
    const [row] = await ds.transaction('REPEATABLE READ', (tx) => tx.query('SHOW transaction_isolation'));
    expect(row.transaction_isolation).toBe('repeatable read');
  });
});
