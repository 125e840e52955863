import type { Logger } from '@bm/platform';
import { waitFor } from '@bm/platform/testing';
import { InboxHub } from '../../src/domain/inbox/inbox-hub';
import { compareStreamIds } from '../../src/domain/inbox/stream-ids';
import type { InboxEntry, InboxEventLog } from '../../src/domain/ports/inbox-events.port';

/* The replica's fan-out: backlog and live events handed to each browser once, in order, per tenant. The event
 * log is an in-memory one answering as the Redis streams do (ids grow, a wait ends on an append or a wake). */

const quietLogger = { warn: () => undefined, info: () => undefined } as unknown as Logger;

class MemoryLog implements InboxEventLog {
  readonly streams = new Map<number, InboxEntry[]>();
  private seq = 0;
  private waiting?: () => void;
  /** Holds `after` until released, to let live events arrive while a backlog is being read. */
  hold?: Promise<void>;

  append(tenantId: number, _eventId: string, event: InboxEntry['event'], data: string): Promise<boolean> {
    this.seq += 1;
    const list = this.streams.get(tenantId) ?? [];
    list.push({ id: `1000-${this.seq}`, event, data });
    this.streams.set(tenantId, list);
    this.waiting?.();
    return Promise.resolve(true);
  }
  async after(tenantId: number, afterId: string, count: number): Promise<InboxEntry[]> {
    const found = (this.streams.get(tenantId) ?? []).filter((e) => compareStreamIds(e.id, afterId) > 0);
    await this.hold;
    return found.slice(0, count);
  }
  latestId(tenantId: number): Promise<string> {
    return Promise.resolve(this.streams.get(tenantId)?.at(-1)?.id ?? '0-0');
  }
  async waitForEvents(cursors: ReadonlyMap<number, string>, blockMs: number) {
    const read = () => {
      const out = new Map<number, InboxEntry[]>();
      for (const [t, c] of cursors) {
        const entries = (this.streams.get(t) ?? []).filter((e) => compareStreamIds(e.id, c) > 0);
        if (entries.length > 0) out.set(t, entries);
      }
      return out;
    };
    if (read().size === 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, blockMs);
        this.waiting = () => (clearTimeout(timer), resolve());
      });
    this.waiting = undefined;
    return read();
  }
  wake(): Promise<void> {
    this.waiting?.();
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function sink() {
  const got: string[] = [];
  let ended = false;
  return {
    got,
    ended: () => ended,
    sink: {
      event: (e: InboxEntry) => got.push(`${e.id} ${e.data}`),
      end: () => void (ended = true),
      ready: () => Promise.resolve(),
    },
  };
}

describe('the inbox hub of a gateway replica', () => {
  it('when stream ids are compared, then by time, then by sequence, as numbers', () => {
    expect(compareStreamIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareStreamIds('10-2', '10-10')).toBeLessThan(0);
    expect(compareStreamIds('10-2', '10-2')).toBe(0);
    expect(compareStreamIds('11-0', '10-99')).toBeGreaterThan(0);
  });

  it('when a browser reconnects while events keep coming, then it gets each missed and new event once, in order', async () => {
    const log = new MemoryLog();
    const hub = new InboxHub(log, quietLogger, { blockMs: 50, backlogPage: 2 });
    for (const n of [1, 2, 3, 4, 5]) await log.append(7, `e${n}`, 'message', `m${n}`);
    const first = sink();
    await hub.open(7, undefined, first.sink);
    // The backlog read is held while two more events come and the shared read sends them.
    let release!: () => void;
    log.hold = new Promise((resolve) => (release = resolve));
    const again = sink();
    const opened = hub.open(7, '1000-2', again.sink);
    await log.append(7, 'e6', 'conversation', 'c6');
    await log.append(7, 'e7', 'message', 'm7');
    await waitFor(() => first.got.length === 2, { what: 'the live events' });
    release();
    log.hold = undefined;
    await opened;
    expect(again.got).toEqual(['1000-3 m3', '1000-4 m4', '1000-5 m5', '1000-6 c6', '1000-7 m7']);
    expect(first.got).toEqual(['1000-6 c6', '1000-7 m7']);
    await hub.close();
    expect(first.ended() && again.ended()).toBe(true);
  });

  it("when two tenants have browsers, then each browser gets only its own tenant's events", async () => {
    const log = new MemoryLog();
    const hub = new InboxHub(log, quietLogger, { blockMs: 50 });
    const a = sink();
    const b = sink();
    await hub.open(1, undefined, a.sink);
    const leaveB = await hub.open(2, undefined, b.sink);
    await log.append(1, 'x', 'message', 'for-1');
    await log.append(2, 'y', 'message', 'for-2');
    await waitFor(() => a.got.length === 1 && b.got.length === 1, { what: 'both events' });
    expect(a.got[0]).toContain('for-1');
    expect(b.got[0]).toContain('for-2');
    leaveB();
    await log.append(2, 'z', 'message', 'after-leaving');
    await log.append(1, 'w', 'message', 'for-1-again');
    await waitFor(() => a.got.length === 2, { what: "tenant 1's second event" });
    expect(b.got).toHaveLength(1);
    expect(hub.connections).toBe(1);
    await hub.close();
  });
});
