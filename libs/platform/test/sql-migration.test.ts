import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import {
  commonEnvSchema,
  createDataSource,
  loadConfig,
  queryRows,
  runMigrations,
  sqlMigration,
  type CommonConfig,
} from '@bm/platform';
import { testEnv, uniqueSuffix } from '@bm/platform/testing';

const config = loadConfig<CommonConfig>(commonEnvSchema, testEnv());
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataSource(schema: string, migrations: (new () => MigrationInterface)[]): DataSource {
  const ds = createDataSource({ url: config.DATABASE_URL, schema, entities: [], migrations, poolSize: 2 });
  cleanups.push(() => (ds.isInitialized ? ds.destroy() : Promise.resolve()));
  return ds;
}

/** The migration as it was written before sqlMigration: a class of its own. */
function classMigration(schema: string): new () => MigrationInterface {
  return class CreateThings1700000000000 implements MigrationInterface {
    name = 'CreateThings1700000000000';
    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE TABLE "${schema}".things (id integer PRIMARY KEY)`);
    }
    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP TABLE "${schema}".things`);
    }
  };
}

function declaredMigration(schema: string): new () => MigrationInterface {
  return sqlMigration('CreateThings1700000000000', {
    up: [`CREATE TABLE "${schema}".things (id integer PRIMARY KEY)`],
    down: [`DROP TABLE "${schema}".things`],
  });
}

describe('sqlMigration', () => {
  it('when run, then its steps apply in order and it is recorded under its name and timestamp', async () => {
    const schema = `sql_migration_${uniqueSuffix()}`;
    const steps: string[] = [];
    const AddColumn = sqlMigration('AddLabel1700000000001', {
      up: [
        `ALTER TABLE "${schema}".things ADD COLUMN label text`,
        async (q) => {
          steps.push('helper');
          await q.query(`INSERT INTO "${schema}".things (id, label) VALUES (1, 'one')`);
        },
      ],
      down: [`ALTER TABLE "${schema}".things DROP COLUMN label`],
    });
    const ds = dataSource(schema, [declaredMigration(schema), AddColumn]);

    const applied = await runMigrations(ds);

    expect(applied).toEqual(['CreateThings1700000000000', 'AddLabel1700000000001']);
    expect(steps).toEqual(['helper']);
    expect(AddColumn.name).toBe('AddLabel1700000000001');
    const recorded = await queryRows<{ timestamp: string; name: string }>(
      ds,
      `SELECT timestamp, name FROM "${schema}".migrations ORDER BY id`,
    );
    expect(recorded.map((r) => [Number(r.timestamp), r.name])).toEqual([
      [1700000000000, 'CreateThings1700000000000'],
      [1700000000001, 'AddLabel1700000000001'],
    ]);
    await expect(queryRows(ds, `SELECT id, label FROM "${schema}".things`)).resolves.toEqual([
      { id: 1, label: 'one' },
    ]);

    await ds.undoLastMigration();
    const columns = await queryRows<{ column_name: string }>(
      ds,
      `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'things'`,
      [schema],
    );
    expect(columns.map((c) => c.column_name)).toEqual(['id']);
  });

  it('when a schema was migrated by the class it replaces, then nothing is pending', async () => {
    const schema = `sql_migration_${uniqueSuffix()}`;
    const before = dataSource(schema, [classMigration(schema)]);
    await expect(runMigrations(before)).resolves.toEqual(['CreateThings1700000000000']);
    await before.destroy();

    const after = dataSource(schema, [declaredMigration(schema)]);

    await expect(runMigrations(after)).resolves.toEqual([]);
    await expect(after.showMigrations()).resolves.toBe(false);
  });
});
