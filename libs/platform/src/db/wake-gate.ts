import type { QueryRunner } from 'typeorm';
import { quoteSchema } from '../amqp/outbox.migration';
import { quoteChannel, type PgListener } from './pg-listener';

/** First half of every wake gate's advisory lock key (the second is the channel's hash): "WAKE". */
const GATE_LOCK_SPACE = 0x57414b45;

/**
 * Lets a worker sleep until a table gets rows without making every writer pay for a notification.
 *
 * A sleeping worker holds the gate's advisory lock (`hold`) on its listener's session. The table's trigger
 * (`createWakeTrigger`) notifies only when it cannot take that lock shared, that is while some worker sleeps: a
 * busy worker holds nothing, so under load writers take a shared lock and commit without NOTIFY (whose commit
 * takes a lock global to the server and would serialise every writer's commit). Taking the lock waits for the
 * writers that decided not to notify, so the worker's next pass, made holding it, sees their rows; every later
 * writer notifies.
 */
export class WakeGate {
  private holding = false;

  constructor(
    private readonly listener: PgListener,
    readonly channel: string,
  ) {
    quoteChannel(channel);
    listener.onLost(() => (this.holding = false));
  }

  /** True while this process holds the lock: writers notify, so the worker may sleep. */
  get held(): boolean {
    return this.holding && this.listener.connected;
  }

  /**
   * Calls wake on each notification, and whenever the listener connects or loses its connection (notifications
   * may have been missed, the lock is gone); starts the listener.
   */
  onWake(wake: () => void): void {
    this.listener.listen(this.channel, wake);
    this.listener.onReconnect(wake);
    this.listener.onLost(wake);
    this.listener.start();
  }

  /**
   * Takes the lock, waiting for the writers that hold it shared; false when it cannot (no connection, or another
   * replica's worker holds it: it sleeps for both, and the notifications reach every listener).
   */
  async hold(): Promise<boolean> {
    if (this.held) return true;
    if (!this.listener.connected) return false;
    try {
      await this.listener.query('SELECT pg_advisory_lock($1, hashtext($2))', [GATE_LOCK_SPACE, this.channel]);
      this.holding = true;
    } catch {
      this.holding = false;
    }
    return this.holding;
  }

  /** Gives the lock back: the worker is awake, writers stop notifying. */
  async release(): Promise<void> {
    if (!this.held) return;
    this.holding = false;
    await this.listener
      .query('SELECT pg_advisory_unlock($1, hashtext($2))', [GATE_LOCK_SPACE, this.channel])
      .catch(() => undefined);
  }
}

/** Trigger and function names of a table's wake trigger. */
function wakeNames(schema: string, table: string) {
  quoteSchema(table);
  return { fn: `${quoteSchema(schema)}.${table}_wake`, trigger: `${table}_wake` };
}

/**
 * Creates the trigger that wakes the `WakeGate` of `channel` after rows are inserted into `${schema}.${table}`
 * (once per statement, and only while a worker sleeps holding the gate); call it from a migration.
 */
export async function createWakeTrigger(
  queryRunner: QueryRunner,
  schema: string,
  table: string,
  channel: string,
): Promise<void> {
  const { fn, trigger } = wakeNames(schema, table);
  const literal = `'${quoteChannel(channel).slice(1, -1)}'`;
  await queryRunner.query(`
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify(${literal}, '');
      RETURN NULL;
    END $$`);
  await queryRunner.query(`
    CREATE TRIGGER ${trigger} AFTER INSERT ON ${quoteSchema(schema)}.${table}
      FOR EACH STATEMENT
      WHEN (NOT pg_try_advisory_xact_lock_shared(${GATE_LOCK_SPACE}, hashtext(${literal})))
      EXECUTE FUNCTION ${fn}()`);
}

/** Drops what `createWakeTrigger` created. */
export async function dropWakeTrigger(
  queryRunner: QueryRunner,
  schema: string,
  table: string,
): Promise<void> {
  const { fn, trigger } = wakeNames(schema, table);
  await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger} ON ${quoteSchema(schema)}.${table}`);
  await queryRunner.query(`DROP FUNCTION IF EXISTS ${fn}()`);
}

/** The channel of a schema's outbox. */
export function outboxChannel(schema: string): string {
  return `${schema}_outbox`;
}

/** Creates the wake trigger of `${schema}.outbox` (see `createWakeTrigger`); call it from a migration. */
export function createOutboxWakeTrigger(queryRunner: QueryRunner, schema: string): Promise<void> {
  return createWakeTrigger(queryRunner, schema, 'outbox', outboxChannel(schema));
}
