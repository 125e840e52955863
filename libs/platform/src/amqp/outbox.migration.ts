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

/**
 * The relay's cursor (issue 36): each row gets the id of the transaction that wrote it (`txid`), and the relay
 * publishes rows in (txid, id) order, keeping how far it got in `${schema}.outbox_cursor` instead of marking each
 * row published. Rows the previous release's relay had not published yet are numbered 0, so the cursor starts
 * with them; rows it had published keep no txid and are never relayed again (the cleanup still deletes them).
 *
 * Expand, then contract: `published_at` and its indexes stay for that release's relays during a rollout (they
 * publish some rows again: consumers drop a repeated message id); a later release drops them.
 */
export async function addOutboxCursor(queryRunner: QueryRunner, schema: string): Promise<void> {
  const s = quoteSchema(schema);
  // Added without a default, then given one: a volatile default on ADD COLUMN would rewrite the table.
  await queryRunner.query(`ALTER TABLE ${s}.outbox ADD COLUMN txid xid8`);
  await queryRunner.query(`UPDATE ${s}.outbox SET txid = '0' WHERE published_at IS NULL`);
  await queryRunner.query(`ALTER TABLE ${s}.outbox ALTER COLUMN txid SET DEFAULT pg_current_xact_id()`);
  await queryRunner.query(`CREATE INDEX outbox_relay_idx ON ${s}.outbox (txid, id)`);
  await queryRunner.query(`
    CREATE TABLE ${s}.outbox_cursor (
      relay text PRIMARY KEY,
      txid xid8 NOT NULL,
      id bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  await queryRunner.query(`INSERT INTO ${s}.outbox_cursor (relay, txid, id) VALUES ('relay', '0', 0)`);
}

/**
 * The down of `addOutboxCursor`: the rows past the cursor are marked unpublished for the previous release's relay,
 * those before it published.
 */
export async function dropOutboxCursor(queryRunner: QueryRunner, schema: string): Promise<void> {
  const s = quoteSchema(schema);
  await queryRunner.query(
    `UPDATE ${s}.outbox o SET published_at = CASE WHEN (o.txid, o.id) > (c.txid, c.id) THEN NULL
                                                 ELSE coalesce(o.published_at, now()) END
       FROM ${s}.outbox_cursor c WHERE c.relay = 'relay' AND o.txid IS NOT NULL`,
  );
  await queryRunner.query(`DROP TABLE ${s}.outbox_cursor`);
  await queryRunner.query(`DROP INDEX ${s}.outbox_relay_idx`);
  await queryRunner.query(`ALTER TABLE ${s}.outbox DROP COLUMN txid`);
}
