import type { InboxStreamEventName } from '@bm/contracts';
import type { RedisClient } from '@bm/platform';
import type { InboxEntry, InboxEventLog } from '../domain/ports/inbox-events.port';

// Kept once per event id: the dedupe mark and the append in one step, so a redelivery racing the first
// delivery on another replica cannot add it twice.
const APPEND_ONCE = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[1]) then
  return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'e', ARGV[3], 'd', ARGV[4])
end
return false`;

type RawEntry = [id: string, fields: string[]];
type RawStreams = Array<[key: string, entries: RawEntry[]]> | null;

export interface InboxEventStoreOptions {
  /** The client's key prefix: replies of XREAD name the keys with it. */
  keyPrefix: string;
  /** Events kept per tenant (approximately: trimmed by whole nodes). */
  maxLength: number;
  /** How long an event id is remembered against redeliveries. */
  dedupeSeconds: number;
  /** Names this replica's wake-up stream. */
  replicaId: string;
}

const toEntry = ([id, fields]: RawEntry): InboxEntry => {
  const at = (name: string) => fields[fields.indexOf(name) + 1];
  return { id, event: at('e') as InboxStreamEventName, data: at('d') };
};

/**
 * The inbox event log in Redis: a capped stream per tenant (`inbox:events:<tenant>`). `commands` serves appends
 * and backlog reads; `reader` is this replica's connection for the one blocking read, which also watches the
 * replica's own wake-up stream so that a new tenant joins the wait at once.
 */
export class InboxEventStore implements InboxEventLog {
  private readonly wakeKey: string;
  private wakeCursor = '0-0';

  constructor(
    private readonly commands: RedisClient,
    private readonly reader: RedisClient,
    private readonly options: InboxEventStoreOptions,
  ) {
    this.wakeKey = `inbox:wake:${options.replicaId}`;
  }

  private keyOf(tenantId: number): string {
    return `inbox:events:${tenantId}`;
  }

  async append(
    tenantId: number,
    eventId: string,
    event: InboxStreamEventName,
    data: string,
  ): Promise<boolean> {
    const id = (await this.commands.eval(
      APPEND_ONCE,
      2,
      this.keyOf(tenantId),
      `inbox:seen:${eventId}`,
      this.options.dedupeSeconds,
      this.options.maxLength,
      event,
      data,
    )) as string | null;
    return id !== null;
  }

  async after(tenantId: number, afterId: string, count: number): Promise<InboxEntry[]> {
    const rows = (await this.commands.xrange(
      this.keyOf(tenantId),
      `(${afterId}`,
      '+',
      'COUNT',
      count,
    )) as RawEntry[];
    return rows.map(toEntry);
  }

  async latestId(tenantId: number): Promise<string> {
    const rows = (await this.commands.xrevrange(this.keyOf(tenantId), '+', '-', 'COUNT', 1)) as RawEntry[];
    return rows[0]?.[0] ?? '0-0';
  }

  async waitForEvents(
    cursors: ReadonlyMap<number, string>,
    blockMs: number,
  ): Promise<Map<number, InboxEntry[]>> {
    const tenants = [...cursors.keys()];
    const reply: RawStreams = await this.reader.xread(
      'COUNT',
      500,
      'BLOCK',
      blockMs,
      'STREAMS',
      this.wakeKey,
      ...tenants.map((t) => this.keyOf(t)),
      this.wakeCursor,
      ...tenants.map((t) => cursors.get(t)!),
    );
    const byTenant = new Map<number, InboxEntry[]>();
    const prefix = `${this.options.keyPrefix}inbox:events:`;
    for (const [key, entries] of reply ?? []) {
      if (key.startsWith(prefix)) byTenant.set(Number(key.slice(prefix.length)), entries.map(toEntry));
      else if (entries.length > 0) this.wakeCursor = entries[entries.length - 1][0];
    }
    return byTenant;
  }

  async wake(): Promise<void> {
    // One entry kept; it expires with the replica (a new process has a new id).
    await this.commands
      .multi()
      .xadd(this.wakeKey, 'MAXLEN', '1', '*', 'w', '1')
      .expire(this.wakeKey, 3600)
      .exec();
  }

  async close(): Promise<void> {
    this.reader.disconnect();
    await this.commands.del(this.wakeKey).catch(() => undefined);
  }
}
