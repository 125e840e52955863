import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One step of a migration: a SQL statement, or a platform helper that writes its own (an outbox, a trigger). */
export type MigrationStep = string | ((q: QueryRunner) => Promise<void>);

/** What a migration does, in order, and what undoes it. */
export interface MigrationSteps {
  up: readonly MigrationStep[];
  down: readonly MigrationStep[];
}

async function runSteps(q: QueryRunner, steps: readonly MigrationStep[]): Promise<void> {
  for (const step of steps) {
    if (typeof step === 'string') await q.query(step);
    else await step(q);
  }
}

/**
 * A migration declared as its steps. TypeORM records and recognises a migration by its `name` (ending in the
 * 13-digit timestamp), so `name` must stay the one the migration was first applied under.
 */
export function sqlMigration(name: string, steps: MigrationSteps): new () => MigrationInterface {
  const migration = class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      await runSteps(q, steps.up);
    }

    async down(q: QueryRunner): Promise<void> {
      await runSteps(q, steps.down);
    }
  };
  // Stack traces and logs name the migration, as they did when each was a class of its own.
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}
