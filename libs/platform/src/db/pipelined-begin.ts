import { Client, Query, type ClientConfig } from 'pg';
import { isStalePreparedStatement, PREPARE_AGAIN_AT, preparedName } from './prepared';

/** What TypeORM sends to open a transaction. */
const START = 'START TRANSACTION';
/** What it sends to close one. */
const END = new Set(['COMMIT', 'ROLLBACK']);

/** pg's `Query` internals this file relies on (pg 8: lib/query.js, lib/connection.js). */
interface WireQuery {
  prepare(connection: WireConnection): void;
  handleCommandComplete(msg: unknown, connection: WireConnection): void;
}
interface WireConnection {
  parse(query: { text: string }): void;
  bind(config: Record<string, never>): void;
  execute(config: Record<string, never>): void;
}

type Callback = (err: Error | undefined, result: unknown) => void;

/**
 * A statement sent with the BEGIN of its transaction ahead of it, in the same write and before the same Sync:
 * the server runs BEGIN, then the statement, and answers both in one round trip. An error in either skips the
 * rest up to the Sync, so the statement never runs outside the transaction.
 */
class BeginThenQuery extends Query {
  private beginAnswered = false;

  constructor(text: string, values: unknown[], name: string | undefined, callback: Callback) {
    super({ text, values, name }, callback as never);
  }

  prepare(connection: WireConnection): void {
    connection.parse({ text: 'BEGIN' });
    connection.bind({});
    connection.execute({});
    (Query.prototype as unknown as WireQuery).prepare.call(this, connection);
  }

  handleCommandComplete(msg: unknown, connection: WireConnection): void {
    // The first completion is BEGIN's: the caller's result is the statement's alone.
    if (!this.beginAnswered) {
      this.beginAnswered = true;
      return;
    }
    (Query.prototype as unknown as WireQuery).handleCommandComplete.call(this, msg, connection);
  }
}

/** The answer to a BEGIN, COMMIT or ROLLBACK that did not need the server. */
const NOTHING_SENT = { command: null, rowCount: null, rows: [], fields: [] };

/** Each prepared text's runs in this process, over all its connections (see `named`). */
const processRuns = new Map<string, number>();

/**
 * The pg client of every data source (`createDataSource`). A transaction's BEGIN costs a round trip of its own
 * (TypeORM sends it and waits); this client holds it back and sends it with the transaction's first statement,
 * in one round trip. PostgreSQL takes a transaction's snapshot at its first statement anyway, so nothing
 * changes but the wait. A transaction that ends before any statement sends nothing at all. A first statement
 * without parameters (simple protocol, possibly several statements) gets its BEGIN sent alone first, as before.
 * A text marked by `prepared` (prepared.ts) runs as a named statement, which the connection parses and plans
 * once (the server keeps the plan) instead of on every call.
 */
export class PipelinedBeginClient extends Client {
  /**
   * The checkout (pg-pool's per-checkout `release`) whose transaction awaits its BEGIN; a client returned to the
   * pool with a BEGIN still held has sent nothing, so the next checkout starts clean.
   */
  private beginHeldFor?: unknown;
  private beginHeld = false;
  /** A BEGIN sent alone (see `send`), until it is answered. */
  private beginSent?: Promise<unknown>;
  /** How often this connection prepared each text again because its statement was stale (see `named`). */
  private readonly staleAgain = new Map<string, number>();

  constructor(config?: string | ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => this.route(query, args)) as Client['query'];
  }

  private route(query: (...args: unknown[]) => unknown, args: unknown[]): unknown {
    const [text, values, callback] = args;
    const base = typeof text === 'string' && Array.isArray(values) ? preparedName(text) : undefined;
    if (base === undefined) return this.send(query, args, undefined);
    const name = this.named(base);
    if (typeof callback === 'function') {
      // pg-pool's own `query` passes a callback.
      const answer: Callback = (err, result) => {
        if (err) this.prepareAgainOnStale(base, err);
        (callback as Callback)(err, result);
      };
      return this.send(query, [text, values, answer], name);
    }
    return (this.send(query, [text, values], name) as Promise<unknown>).catch((err: unknown) => {
      this.prepareAgainOnStale(base, err);
      throw err;
    });
  }

  /**
   * The statement name this connection uses for a prepared text this time: the text's own name, with a suffix once
   * it is to be prepared again: the process has run it PREPARE_AGAIN_AT times (counted over all connections, so
   * every connection plans it afresh at the same table sizes), or this connection's statement was stale. Both
   * counts only grow, so a new suffix is a name this connection never used (the earlier one stays on the server).
   */
  private named(base: string): string {
    const runs = (processRuns.get(base) ?? 0) + 1;
    processRuns.set(base, runs);
    let again = this.staleAgain.get(base) ?? 0;
    for (const at of PREPARE_AGAIN_AT) if (runs >= at) again += 1;
    return again === 0 ? base : `${base}_${again}`;
  }

  /** After an error that says the prepared statement is stale or gone, the next call prepares it afresh. */
  private prepareAgainOnStale(base: string, err: unknown): void {
    if (!isStalePreparedStatement(err)) return;
    this.staleAgain.set(base, (this.staleAgain.get(base) ?? 0) + 1);
    // The call's own transaction is lost; its caller tries it again, and the retry prepares the text anew.
    (err as { transient?: boolean }).transient = true;
  }

  private send(query: (...args: unknown[]) => unknown, args: unknown[], name: string | undefined): unknown {
    const [text, values, callback] = args;
    if (name !== undefined)
      args = callback === undefined ? [{ text, values, name }] : [{ text, values, name }, callback];
    // Calls made while a BEGIN sent alone is answered go after it, in order.
    if (this.beginSent) return this.after(this.beginSent, query, args);
    if (typeof text === 'string' && text === START && values === undefined && callback === undefined) {
      this.beginHeld = true;
      this.beginHeldFor = this.checkout();
      return Promise.resolve(NOTHING_SENT);
    }
    if (!this.held()) return query(...args);
    this.beginHeld = false;
    if (typeof text === 'string' && END.has(text) && values === undefined && callback === undefined) {
      // Nothing was sent since the BEGIN that was never sent: nothing to commit or roll back.
      return Promise.resolve(NOTHING_SENT);
    }
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
      return new Promise((resolve, reject) => {
        query(new BeginThenQuery(text, values, name, (err, result) => (err ? reject(err) : resolve(result))));
      });
    }
    // Anything else (a statement without parameters may hold several, which one extended-protocol exchange
    // cannot): BEGIN on its own first and the call once it is answered, as TypeORM would have.
    const sent = (query(START) as Promise<unknown>).finally(() => {
      if (this.beginSent === sent) this.beginSent = undefined;
    });
    this.beginSent = sent;
    return this.after(sent, query, args);
  }

  /** The call, once the BEGIN sent before it was answered; it fails with the BEGIN's error otherwise. */
  private after(begin: Promise<unknown>, query: (...args: unknown[]) => unknown, args: unknown[]): unknown {
    const callback = args.find((a, i) => i > 0 && typeof a === 'function') as Callback | undefined;
    const result = begin.then(() => query(...args));
    if (callback === undefined) return result;
    result.catch((err: Error) => callback(err, undefined));
    return undefined;
  }

  private held(): boolean {
    return this.beginHeld && this.beginHeldFor === this.checkout();
  }

  private checkout(): unknown {
    return (this as unknown as { release?: unknown }).release;
  }
}
