import type { QueryRunner } from 'typeorm';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Quotes a schema name after checking it is a plain identifier, since it is spliced into SQL. */
export function quoteSchema(schema: string): string {
  if (!IDENTIFIER.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  return `"${schema}"`;
}

/** Creates `${schema}.outbox`; call it from the service's first migration. */
export async function createOutboxTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  const s = quoteSchema(schema);
  await queryRunner.query(`
    CREATE TABLE ${s}.outbox (
      id bigserial PRIMARY KEY,
      message_id text NOT NULL UNIQUE,
      routing_key text NOT NULL,
      payload jsonb NOT NULL,
      headers jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz NULL,
      attempts integer NOT NULL DEFAULT 0,
      last_error text NULL
    )`);
  // The relay scans only unpublished rows in id order; the cleanup scans only published ones by age.
  await queryRunner.query(
    `CREATE INDEX outbox_unpublished_idx ON ${s}.outbox (id) WHERE published_at IS NULL`,
  );
  await queryRunner.query(
    `CREATE INDEX outbox_published_at_idx ON ${s}.outbox (published_at) WHERE published_at IS NOT NULL`,
  );
}

/** Drops `${schema}.outbox`; the `down` of the migration that created it. */
export async function dropOutboxTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`DROP TABLE IF EXISTS ${quoteSchema(schema)}.outbox`);
}
