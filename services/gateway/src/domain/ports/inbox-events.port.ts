import type { InboxStreamEventName } from '@bm/contracts';

/** One event of a tenant's inbox stream, as kept: its stream id, its name and its `data` (JSON text). */
export interface InboxEntry {
  id: string;
  event: InboxStreamEventName;
  data: string;
}

/**
 * The tenants' inbox events, kept per tenant (the latest few thousand each) where every gateway replica reads
 * them: the broker's consumer appends, the replicas' streams read.
 */
export interface InboxEventLog {
  /** Appends the event to its tenant's stream once per event id; false for one already kept. */
  append(tenantId: number, eventId: string, event: InboxStreamEventName, data: string): Promise<boolean>;
  /** Up to `count` of the tenant's events after `afterId`, oldest first. */
  after(tenantId: number, afterId: string, count: number): Promise<InboxEntry[]>;
  /** The id of the tenant's latest event; `0-0` when it has none. */
  latestId(tenantId: number): Promise<string>;
  /**
   * Waits up to `blockMs` for events after each tenant's cursor, or until `wake()`; resolves with those that came
   * (none after a timeout or a wake). One wait at a time.
   */
  waitForEvents(cursors: ReadonlyMap<number, string>, blockMs: number): Promise<Map<number, InboxEntry[]>>;
  /** Ends the wait in progress, or the next one at once if none is waiting yet. */
  wake(): Promise<void>;
  close(): Promise<void>;
}
