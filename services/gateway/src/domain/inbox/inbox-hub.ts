import type { Logger } from '@bm/platform';
import type { InboxEntry, InboxEventLog } from '../ports/inbox-events.port';
import { compareStreamIds } from './stream-ids';

/** Where a browser's stream goes: its events, and its end (the gateway stopping). */
export interface InboxSink {
  event(entry: InboxEntry): void;
  end(): void;
  /** Resolves once the browser has taken what it was sent: a long backlog goes a page at a time. */
  ready(): Promise<void>;
}

interface Subscriber {
  sink: InboxSink;
  /** The last event it was sent: older ones (a backlog's and the live read's overlap) are not sent again. */
  lastId: string | null;
  /** Live events that came while its backlog was being read, sent after it; null once it is live. */
  pending: InboxEntry[] | null;
}

interface TenantReader {
  /** The last event the shared read saw; undefined until known (its first subscriber is joining). */
  cursor?: string;
  subscribers: Set<Subscriber>;
}

export interface InboxHubOptions {
  /** How long one shared read waits for events (a wake ends it sooner). */
  blockMs?: number;
  /** Events read per round trip of a reconnecting browser's backlog. */
  backlogPage?: number;
}

const RETRY_MS = 1_000;
/** Live events held for a browser still taking its backlog; past this it is let go (it reconnects from its last). */
const MAX_PENDING = 5_000;

/**
 * A replica's browsers' inbox streams: one blocking read of the event log for every tenant with a browser here
 * (no database involved), its events fanned out in memory. A browser reconnecting with its last event id gets
 * the events after it first (the log is shared, so from any replica, also after a restart), then the live ones.
 */
export class InboxHub {
  private readonly tenants = new Map<number, TenantReader>();
  private readonly blockMs: number;
  private readonly backlogPage: number;
  private running?: Promise<void>;
  /** Whether the read loop runs: set and cleared synchronously, so a tenant joining as it ends starts another. */
  private reading = false;
  private closed = false;
  private failing = false;

  constructor(
    private readonly log: InboxEventLog,
    private readonly logger: Logger,
    options: InboxHubOptions = {},
  ) {
    this.blockMs = options.blockMs ?? 5_000;
    this.backlogPage = options.backlogPage ?? 500;
  }

  /** Browsers connected to this replica. */
  get connections(): number {
    let n = 0;
    for (const t of this.tenants.values()) n += t.subscribers.size;
    return n;
  }

  /**
   * Subscribes a browser to its tenant's events after `lastEventId` (only new ones without it); resolves with
   * its unsubscribe once the backlog was handed to the sink. Rejects when the log cannot be read (nothing was sent).
   */
  async open(tenantId: number, lastEventId: string | undefined, sink: InboxSink): Promise<() => void> {
    if (this.closed) throw new Error('inbox hub is closed');
    const subscriber: Subscriber = { sink, lastId: lastEventId ?? null, pending: [] };
    let tenant = this.tenants.get(tenantId);
    const first = tenant === undefined;
    if (!tenant) this.tenants.set(tenantId, (tenant = { subscribers: new Set() }));
    tenant.subscribers.add(subscriber);
    const unsubscribe = () => this.leave(tenantId, subscriber);
    try {
      if (first) {
        // The shared read starts at the log's end: what came before is the backlog of those who ask for it.
        const latest = await this.log.latestId(tenantId);
        if (tenant.cursor === undefined) tenant.cursor = latest;
        this.startReading();
      }
      if (lastEventId !== undefined) await this.sendBacklog(tenantId, subscriber, lastEventId);
    } catch (err) {
      unsubscribe();
      throw err;
    }
    const live = subscriber.pending ?? [];
    subscriber.pending = null;
    for (const entry of live) this.deliver(subscriber, entry);
    return unsubscribe;
  }

  /** Ends every browser's stream and the shared read. */
  async close(): Promise<void> {
    this.closed = true;
    for (const tenant of this.tenants.values()) for (const s of tenant.subscribers) s.sink.end();
    this.tenants.clear();
    await this.log.wake().catch(() => undefined);
    await this.running;
    await this.log.close();
  }

  private async sendBacklog(tenantId: number, subscriber: Subscriber, from: string): Promise<void> {
    let after = from;
    for (;;) {
      await subscriber.sink.ready();
      // Left meanwhile (closed, or let go for a backlog it took too slowly): nothing more to read for it.
      if (!this.tenants.get(tenantId)?.subscribers.has(subscriber)) return;
      const page = await this.log.after(tenantId, after, this.backlogPage);
      for (const entry of page) this.deliver(subscriber, entry);
      if (page.length < this.backlogPage) return;
      after = page[page.length - 1].id;
    }
  }

  private deliver(subscriber: Subscriber, entry: InboxEntry): void {
    if (subscriber.lastId !== null && compareStreamIds(entry.id, subscriber.lastId) <= 0) return;
    subscriber.lastId = entry.id;
    subscriber.sink.event(entry);
  }

  private leave(tenantId: number, subscriber: Subscriber): void {
    const tenant = this.tenants.get(tenantId);
    if (!tenant?.subscribers.delete(subscriber)) return;
    // Its stream is no longer read here; the next read leaves it out.
    if (tenant.subscribers.size === 0) this.tenants.delete(tenantId);
  }

  private startReading(): void {
    if (this.reading) {
      // The read in progress does not know the new tenant yet: end its wait so the next one includes it.
      this.log.wake().catch((err: unknown) => this.warn('inbox wake failed', err));
      return;
    }
    this.reading = true;
    this.running = this.readLoop();
  }

  private async readLoop(): Promise<void> {
    for (;;) {
      if (this.closed || this.tenants.size === 0) {
        this.reading = false;
        return;
      }
      const cursors = new Map<number, string>();
      for (const [tenantId, t] of this.tenants) if (t.cursor !== undefined) cursors.set(tenantId, t.cursor);
      let batches: Map<number, InboxEntry[]>;
      try {
        batches = await this.log.waitForEvents(cursors, this.blockMs);
        if (this.failing) this.logger.info('inbox event log readable again');
        this.failing = false;
      } catch (err) {
        if (this.closed) continue;
        this.warn('inbox event log read failed', err);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      for (const [tenantId, entries] of batches) {
        const tenant = this.tenants.get(tenantId);
        if (!tenant || entries.length === 0) continue;
        tenant.cursor = entries[entries.length - 1].id;
        for (const subscriber of [...tenant.subscribers]) {
          if (!subscriber.pending) for (const entry of entries) this.deliver(subscriber, entry);
          else if (subscriber.pending.push(...entries) > MAX_PENDING) {
            this.leave(tenantId, subscriber);
            subscriber.sink.end();
          }
        }
      }
    }
  }

  private warn(message: string, err: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn(message, { error: (err as Error).message });
  }
}
