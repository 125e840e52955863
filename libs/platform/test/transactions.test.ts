import type { DataSource } from 'typeorm';
import {
  commonEnvSchema,
  createDataSource,
  isTransientFailure,
  loadConfig,
  prepared,
  type CommonConfig,
} from '@bm/platform';
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

/*
 * A statement marked `prepared` is parsed and planned once per connection (a named statement), and stays right when
 * a migration changes what it reads while a connection holds it.
 */
describe('prepared statements', () => {
  const preparedNames = (tx: { query: DataSource['query'] }) =>
    tx
      .query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'bm\\_%'`)
      .then((rows: Array<{ name: string }>) => rows.map((r) => r.name));

  it('when a marked statement runs, then the connection keeps it prepared, in a transaction or outside one', async () => {
    const one = new DataSourceOfOne();
    await one.open();
    try {
      const text = prepared(`SELECT id, label FROM ${table} WHERE id = ANY($1::int[]) ORDER BY id`);
      await one.ds.query(`INSERT INTO ${table} VALUES (10, 'p'), (11, 'q')`);
      expect(await one.ds.query(text, [[10]])).toEqual([{ id: 10, label: 'p' }]);
      // First in a transaction, where its BEGIN goes with it, and again after it.
      const [inTx, names] = await one.ds.transaction(async (tx) => [
        await tx.query(text, [[10, 11]]),
        await preparedNames(tx),
      ]);
      expect(inTx).toEqual([
        { id: 10, label: 'p' },
        { id: 11, label: 'q' },
      ]);
      expect(names).toHaveLength(1);
      await expect(one.ds.transaction((tx) => tx.query(text, [[11]]))).resolves.toEqual([
        { id: 11, label: 'q' },
      ]);
      expect(await preparedNames(one.ds)).toEqual(names);
      // pg-pool's own query (with a callback), as a hot path that skips TypeORM's query runner calls it.
      const pool = (one.ds.driver as unknown as { master: { query: DataSource['query'] } }).master;
      expect((await pool.query(text, [[10]])).rows).toEqual([{ id: 10, label: 'p' }]);
      expect(await preparedNames(one.ds)).toEqual(names);
    } finally {
      await one.close();
    }
  });

  it('when a connection has run a statement a hundred times, then it prepares it again, once', async () => {
    const one = new DataSourceOfOne();
    await one.open();
    try {
      const text = prepared(`SELECT $1::int + 1 AS n`);
      for (let i = 1; i <= 150; i += 1) expect(await one.ds.query(text, [i])).toEqual([{ n: i + 1 }]);
      const names = await preparedNames(one.ds);
      expect(names).toHaveLength(2);
      expect(names).toContain(`${names.sort()[0]}_1`);
    } finally {
      await one.close();
    }
  });

  it('when the process has run a statement a hundred times over several connections, then each prepares it again', async () => {
    const [a, b] = [new DataSourceOfOne(), new DataSourceOfOne()];
    await Promise.all([a.open(), b.open()]);
    try {
      const text = prepared(`SELECT $1::int + 2 AS n`);
      // 60 runs each: neither connection reached a hundred alone.
      for (let i = 1; i <= 60; i += 1)
        for (const one of [a, b]) expect(await one.ds.query(text, [i])).toEqual([{ n: i + 2 }]);
      for (const one of [a, b]) {
        const names = (await preparedNames(one.ds)).sort();
        expect(names).toEqual([names[0], `${names[0]}_1`]);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('when a migration adds a column a prepared SELECT * reads, then one call fails as transient and the next sees the column', async () => {
    const one = new DataSourceOfOne();
    await one.open();
    const altered = `${table}_alter`;
    try {
      await one.ds.query(`CREATE TABLE ${altered} (id int PRIMARY KEY)`);
      await one.ds.query(`INSERT INTO ${altered} VALUES (1)`);
      const text = prepared(`SELECT * FROM ${altered} WHERE id = ANY($1::int[])`);
      expect(await one.ds.query(text, [[1]])).toEqual([{ id: 1 }]);
      await one.ds.query(`ALTER TABLE ${altered} ADD COLUMN extra text NOT NULL DEFAULT 'x'`);
      const failure = await one.ds.query(text, [[1]]).catch((err: unknown) => err);
      expect((failure as { driverError?: { code?: string } }).driverError?.code).toBe('0A000');
      expect(isTransientFailure(failure)).toBe(true);
      expect(await one.ds.query(text, [[1]])).toEqual([{ id: 1, extra: 'x' }]);
      expect(await one.ds.transaction((tx) => tx.query(text, [[1]]))).toEqual([{ id: 1, extra: 'x' }]);
      // Any other failure of a prepared statement is the statement's own: not transient, nothing prepared again.
      const divide = prepared(`SELECT 1 / $1::int AS x`);
      const own = await one.ds.query(divide, [0]).catch((err: unknown) => err);
      expect((own as { driverError?: { code?: string } }).driverError?.code).toBe('22012');
      expect(isTransientFailure(own)).toBe(false);
      expect(await one.ds.query(divide, [1])).toEqual([{ x: 1 }]);
    } finally {
      await one.ds.query(`DROP TABLE IF EXISTS ${altered}`);
      await one.close();
    }
  });
});

/** A data source of one connection, so that every call meets the statements the previous ones prepared. */
class DataSourceOfOne {
  readonly ds = createDataSource({
    url: config.DATABASE_URL,
    schema: 'public',
    entities: [],
    migrations: [],
    poolSize: 1,
  });

  open(): Promise<DataSource> {
    return this.ds.initialize();
  }

  close(): Promise<void> {
    return this.ds.destroy();
  }
}
