import { Client } from 'pg';
import type { Logger } from '../logger';

export interface PgListenerOptions {
  url: string;
  logger: Logger;
  /** Longest pause between reconnection attempts (default 5 s). */
  maxReconnectDelayMs?: number;
  applicationName?: string;
}

type Handler = (payload: string) => void;

/**
 * One dedicated PostgreSQL connection per process for LISTEN and the session locks of `WakeGate`s. Reconnects
 * when lost, listens again, and tells every `onReconnect` callback, so that its users catch up on what they may
 * have missed while it was away.
 */
export class PgListener {
  private client?: Client;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly reconnected: Array<() => void> = [];
  private readonly lost: Array<() => void> = [];
  private closed = false;
  private started = false;
  private connecting?: Promise<void>;
  private retryTimer?: NodeJS.Timeout;
  private failures = 0;

  constructor(private readonly o: PgListenerOptions) {}

  /** True while the connection is up (notifications and session locks hold). */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Calls handler with each notification's payload on channel (from the next connection on, if not connected). */
  listen(channel: string, handler: Handler): void {
    quoteChannel(channel);
    const first = !this.handlers.has(channel);
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
    // A failure means the connection is going: the next one listens to every channel.
    if (first && this.client) this.client.query(`LISTEN ${quoteChannel(channel)}`).catch(() => undefined);
  }

  /** Called after each connection (the first too), once the channels are listened to: a chance to catch up. */
  onReconnect(callback: () => void): void {
    this.reconnected.push(callback);
  }

  /** Called when the connection is lost (its session locks are gone with it). */
  onLost(callback: () => void): void {
    this.lost.push(callback);
  }

  /**
   * Connects in the background, retrying until it succeeds (its users poll meanwhile); every part that uses the
   * listener calls it, the first call connects.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.closed = false;
    void this.connect();
  }

  /** Runs a statement on the listening session; fails when not connected. */
  async query<T extends object>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (!this.client) throw new Error('listener not connected');
    return (await this.client.query<T>(sql, params)).rows;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.started = false;
    clearTimeout(this.retryTimer);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Never rejects: a failure is logged and retried. */
  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new Client({
      connectionString: this.o.url,
      application_name: this.o.applicationName ?? 'pg-listener',
      connectionTimeoutMillis: 3_000,
      // A WakeGate waits this long for the writers holding its lock (short transactions) before giving up on
      // sleeping; longer means another replica's worker holds it, and waiting would hold up this connection.
      lock_timeout: 200,
    });
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    client.on('notification', (n) => {
      for (const handler of this.handlers.get(n.channel) ?? []) handler(n.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.o.logger.warn('listener connection failed, will retry', { error: (err as Error).message });
      this.retryLater();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.failures = 0;
    this.client = client;
    for (const callback of this.reconnected) callback();
  }

  private drop(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    for (const callback of this.lost) callback();
    if (this.closed) return;
    this.o.logger.warn('listener connection lost, reconnecting');
    this.retryLater();
  }

  private retryLater(): void {
    if (this.closed) return;
    this.failures += 1;
    const delay = Math.min(100 * 2 ** this.failures, this.o.maxReconnectDelayMs ?? 5_000);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** Channel names are spliced into LISTEN: plain identifiers only. */
export function quoteChannel(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  return `"${channel}"`;
}
