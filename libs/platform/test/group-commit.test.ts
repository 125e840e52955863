import { Pool } from 'pg';
import { commonEnvSchema, createLogger, GroupCommit, loadConfig, type CommonConfig } from '@bm/platform';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';

/*
 * The one batcher of every service. Where a group writes, it writes to a table of its own in the run's database,
 * so a group is one real statement and a constraint a real one.
 */
const config = loadConfig<CommonConfig>(commonEnvSchema, testEnv());
const logger = createLogger('group-commit-test', 'silent');
const pool = new Pool({ connectionString: config.DATABASE_URL, max: 8 });
const table = `group_commit_${uniqueSuffix().replace(/\W/g, '_')}`.toLowerCase();

beforeAll(async () => {
  await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, label text NOT NULL CHECK (label <> 'bad'))`);
});
afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
});

interface Row {
  id: number;
  label: string;
}

/** Inserts the rows in one statement; answers each row's stored label in order, and records the statement. */
function inserter(statements: number[][]) {
  return async (rows: Row[]): Promise<string[]> => {
    statements.push(rows.map((r) => r.id));
    const result = await pool.query<{ id: number; label: string }>(
      `INSERT INTO ${table} (id, label) SELECT * FROM unnest($1::int[], $2::text[])
       RETURNING id, upper(label) AS label`,
      [rows.map((r) => r.id), rows.map((r) => r.label)],
    );
    const byId = new Map(result.rows.map((r) => [r.id, r.label]));
    return rows.map((r) => byId.get(r.id)!);
  };
}

async function stored(ids: number[]): Promise<number[]> {
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM ${table} WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows.map((r) => r.id);
}

let nextId = 1;
const ids = (n: number) => Array.from({ length: n }, () => nextId++);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GroupCommit', () => {
  it('when items arrive while a group is being written, then they are written together and each submitter gets its own row', async () => {
    const statements: number[][] = [];
    const group = new GroupCommit<Row, string>(inserter(statements), {
      name: 'rows',
      logger,
      concurrency: 1,
    });
    const batch = ids(6);

    const results = await Promise.all(batch.map((id) => group.submit({ id, label: `row ${id}` })));

    expect(results).toEqual(batch.map((id) => `ROW ${id}`));
    // The first goes alone at once; the others gathered while it was written.
    expect(statements).toEqual([batch.slice(0, 1), batch.slice(1)]);
    expect(await stored(batch)).toEqual(batch);
  });

  it('when one row of a group breaks a constraint, then the others are committed and only it fails', async () => {
    const statements: number[][] = [];
    const group = new GroupCommit<Row, string>(inserter(statements), {
      name: 'rows',
      logger,
      concurrency: 1,
    });
    const [first, ...rest] = ids(5);
    const bad = rest[1];

    const results = await Promise.allSettled([
      group.submit({ id: first, label: 'first' }),
      ...rest.map((id) => group.submit({ id, label: id === bad ? 'bad' : 'ok' })),
    ]);

    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await stored([first, ...rest])).toEqual([first, ...rest].filter((id) => id !== bad));
    // The failed group of four, then each of its rows alone.
    expect(statements.slice(1)).toEqual([rest, ...rest.map((id) => [id])]);
  });

  it("when a group fails with onFailure 'all', then each of its submitters gets the error and nothing is written alone", async () => {
    const statements: number[][] = [];
    const group = new GroupCommit<Row, string>(inserter(statements), {
      name: 'rows',
      logger,
      concurrency: 1,
      onFailure: 'all',
    });
    const [first, ...rest] = ids(4);

    const results = await Promise.allSettled([
      group.submit({ id: first, label: 'first' }),
      ...rest.map((id, i) => group.submit({ id, label: i === 0 ? 'bad' : 'ok' })),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected']);
    expect(statements).toEqual([[first], rest]);
    expect(await stored(rest)).toEqual([]);
  });

  it('when more items wait than a group may hold, then groups stop at the size and at the weight', async () => {
    const groups: number[][] = [];
    const group = new GroupCommit<number>(
      async (items) => {
        groups.push(items);
        await sleep(5);
      },
      { name: 'sizes', maxBatch: 3, maxWeight: 10, weigh: (n) => n, concurrency: 1 },
    );

    // 9 goes alone; then 1+2+3 stops at three items; then 4+5 (4+5+6 would weigh 15); a lone 11 outweighs the
    // bound and still goes.
    await Promise.all([9, 1, 2, 3, 4, 5, 11].map((n) => group.submit(n)));

    expect(groups).toEqual([[9], [1, 2, 3], [4, 5], [11]]);
  });

  it('when a linger is set, then items that come within it go together, and a full group goes without waiting', async () => {
    const groups: Array<{ items: number[]; at: number }> = [];
    const start = Date.now();
    const group = new GroupCommit<number>(
      async (items) => {
        groups.push({ items, at: Date.now() - start });
        await Promise.resolve();
      },
      { name: 'linger', maxBatch: 4, lingerMs: 1_000, concurrency: Infinity },
    );

    const full = [1, 2, 3, 4, 5].map((n) => group.submit(n));
    // Four fill a group at once: it has gone before any timer (the linger's included) can fire.
    await new Promise((resolve) => setImmediate(resolve));
    expect(groups.map((g) => g.items)).toEqual([[1, 2, 3, 4]]);
    await sleep(20);
    const late = group.submit(6);
    await Promise.all([...full, late]);

    // 5 lingers from its arrival, and 6, come meanwhile (the 1 s linger leaves a loaded machine room), joins it.
    expect(groups.map((g) => g.items)).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ]);
    expect(groups[1].at).toBeGreaterThanOrEqual(990);
  });

  it('when items in flight are bounded, then no more than that are applied at once across groups', async () => {
    let inFlight = 0;
    let most = 0;
    const sizes: number[] = [];
    const counting = new GroupCommit<number>(
      async (items) => {
        sizes.push(items.length);
        inFlight += items.length;
        most = Math.max(most, inFlight);
        await sleep(10);
        inFlight -= items.length;
      },
      { name: 'bounded', maxBatch: 4, maxItemsInFlight: 6, concurrency: Infinity, lingerMs: 5 },
    );

    await Promise.all(Array.from({ length: 20 }, (_, n) => counting.submit(n)));

    expect(most).toBe(6);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(20);
    expect(Math.max(...sizes)).toBe(4);
  });

  it('when stopped, then what lingers is written at once, and stop resolves once every item is committed', async () => {
    const statements: number[][] = [];
    const group = new GroupCommit<Row, string>(inserter(statements), {
      name: 'rows',
      logger,
      lingerMs: 60_000,
      maxBatch: 100,
    });
    const batch = ids(3);
    const submitted = batch.map((id) => group.submit({ id, label: 'stop' }));
    await sleep(20);
    expect(statements).toEqual([]);

    await group.stop();

    expect(statements).toEqual([batch]);
    expect(await stored(batch)).toEqual(batch);
    await expect(Promise.all(submitted)).resolves.toEqual(['STOP', 'STOP', 'STOP']);
  });

  it('when two groups deadlock on each other, then the loser is applied again at once and each writes once', async () => {
    const [first, second] = ids(2);
    await pool.query(`INSERT INTO ${table} (id, label) VALUES ($1, 'x'), ($2, 'x')`, [first, second]);
    let holdingFirstLocks = 0;
    let bothHold: () => void = () => undefined;
    const bothHoldFirstLock = new Promise<void>((resolve) => (bothHold = resolve));
    let applies = 0;
    // Appends its label to both rows in one transaction, in the order given: crossed orders deadlock once.
    const crossing = (order: number[]) => async (labels: string[]) => {
      applies += 1;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const append = (id: number) =>
          client.query(`UPDATE ${table} SET label = label || $2 WHERE id = $1`, [id, labels.join('')]);
        await append(order[0]);
        if (++holdingFirstLocks === 2) bothHold();
        await bothHoldFirstLock;
        await append(order[1]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    };
    const a = new GroupCommit<string>(crossing([first, second]), { name: 'a', logger });
    const b = new GroupCommit<string>(crossing([second, first]), { name: 'b', logger });

    await Promise.all([a.submit('a'), b.submit('b')]);

    // At least one loss and its retry (a retry can lose again to the other group's own retry).
    expect(applies).toBeGreaterThanOrEqual(3);
    const { rows } = await pool.query<{ label: string }>(
      `SELECT label FROM ${table} WHERE id = ANY($1) ORDER BY id`,
      [[first, second]],
    );
    expect(rows.map((r) => [...r.label].sort().join(''))).toEqual(['abx', 'abx']);
  });
});
