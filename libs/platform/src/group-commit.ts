import type { Logger } from './logger';
import { isTransientFailure } from './transient-failure';

interface Waiting<T, R> {
  item: T;
  weight: number;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/** Applies a group: with a result type, one result per item, in the items' order. */
export type GroupApply<T, R> = (items: T[]) => Promise<[R] extends [void] ? unknown : readonly R[]>;

export interface GroupCommitOptions<T> {
  /** Name in the logs. */
  name: string;
  /** Where a group applied again item by item is reported. */
  logger?: Logger;
  /** Largest group applied at once (default 500). */
  maxBatch?: number;
  /** With `weigh`: a group stops growing before its items weigh more than this (a lone item may). */
  maxWeight?: number;
  /** An item's weight (e.g. its bytes), counted against `maxWeight`. */
  weigh?: (item: T) => number;
  /** Groups applied at the same time (default 2). */
  concurrency?: number;
  /** Items being applied at the same time across groups (default: no bound but the groups'). */
  maxItemsInFlight?: number;
  /**
   * How long a group that is not full waits for more items, from its first item (default 0: it goes at once,
   * or as soon as a group finishes when all are busy).
   */
  lingerMs?: number;
  /**
   * A group that fails for a reason other than an outage: applied again item by item so one bad item fails alone
   * (`'each'`, the default), or failed whole (`'all'`, for applies that must not run twice).
   */
  onFailure?: 'each' | 'all';
}

/**
 * Gathers the items that arrive while earlier ones are being applied (or within `lingerMs`) and applies them
 * together (one transaction, a few statements); alone, an item goes at once unless told to linger. Each submitter
 * hears back only once its group committed (so a consumer acks after the commit), with its own item's result. A
 * group that fails is applied again item by item, so one bad item fails (and is retried or dead-lettered) alone;
 * a group that failed transiently (the dependency unavailable) fails whole, and its consumers wait the outage out.
 */
export class GroupCommit<T, R = void> {
  private queue: Array<Waiting<T, R>> = [];
  private groupsInFlight = 0;
  private itemsInFlight = 0;
  private lingerTimer?: NodeJS.Timeout;
  /** The waiting items have lingered long enough: a group that is not full may go. */
  private due = false;
  private stopping = false;
  private idle: Array<() => void> = [];
  private readonly maxBatch: number;
  private readonly maxWeight: number;
  private readonly concurrency: number;
  private readonly maxItemsInFlight: number;
  private readonly lingerMs: number;

  constructor(
    private readonly apply: GroupApply<T, R>,
    private readonly options: GroupCommitOptions<T>,
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxWeight = options.maxWeight ?? Infinity;
    this.concurrency = options.concurrency ?? 2;
    this.maxItemsInFlight = options.maxItemsInFlight ?? Infinity;
    this.lingerMs = options.lingerMs ?? 0;
  }

  /** Resolves with the item's result once its group is committed; rejects with its group's (or its own) error. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, weight: this.options.weigh?.(item) ?? 0, resolve, reject });
      this.pump();
    });
  }

  /** Applies what waits without lingering further, and resolves once nothing is waiting or being applied. */
  stop(): Promise<void> {
    this.stopping = true;
    this.pump();
    return new Promise((resolve) => {
      this.idle.push(resolve);
      this.settle();
    });
  }

  private pump(): void {
    while (
      this.queue.length > 0 &&
      this.groupsInFlight < this.concurrency &&
      this.itemsInFlight < this.maxItemsInFlight
    ) {
      const group = this.take(this.maxItemsInFlight - this.itemsInFlight);
      if (!group) break;
      this.groupsInFlight += 1;
      this.itemsInFlight += group.length;
      void this.run(group).finally(() => {
        this.groupsInFlight -= 1;
        this.itemsInFlight -= group.length;
        this.pump();
        this.settle();
      });
    }
    if (this.queue.length === 0) {
      this.due = false;
      clearTimeout(this.lingerTimer);
      this.lingerTimer = undefined;
    }
  }

  /** The oldest waiting items up to the bounds, or none while a group that is not full lingers. */
  private take(room: number): Array<Waiting<T, R>> | undefined {
    const limit = Math.min(this.maxBatch, room);
    let weight = 0;
    let n = 0;
    while (n < this.queue.length && n < limit) {
      weight += this.queue[n].weight;
      if (n > 0 && weight > this.maxWeight) break;
      n += 1;
    }
    // Cut short by a bound (size, weight, room in flight), the group cannot grow by waiting.
    const full = n === this.maxBatch || n < this.queue.length;
    if (!full && this.lingerMs > 0 && !this.due && !this.stopping) {
      this.lingerTimer ??= setTimeout(() => {
        this.lingerTimer = undefined;
        this.due = true;
        this.pump();
      }, this.lingerMs);
      return undefined;
    }
    return this.queue.splice(0, n);
  }

  private settle(): void {
    if (this.queue.length > 0 || this.groupsInFlight > 0) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private async run(group: Array<Waiting<T, R>>): Promise<void> {
    try {
      const results = (await this.applyThroughConflicts(group.map((w) => w.item))) as
        readonly R[] | undefined;
      group.forEach((w, i) => w.resolve(results?.[i] as R));
      return;
    } catch (err) {
      // A group that failed because the database (or another dependency) is away fails whole: applying its
      // items one by one would only fail each of them again against the same outage.
      if (group.length === 1 || this.options.onFailure === 'all' || isTransientFailure(err)) {
        for (const w of group) w.reject(err);
        return;
      }
      this.options.logger?.warn(`${this.options.name}: group failed, applying its items one by one`, {
        items: group.length,
        error: (err as Error).message,
      });
    }
    for (const w of group) {
      await this.applyThroughConflicts([w.item]).then(
        (results) => w.resolve((results as readonly R[] | undefined)?.[0] as R),
        w.reject,
      );
    }
  }

  /**
   * Applies the items, again at once when the transaction lost a lock conflict (a deadlock or a serialization
   * failure: PostgreSQL rolled it back whole, so nothing is applied twice). Such a conflict is between this
   * service's own concurrent writers, not an outage: failing the group would pause its consumers for a backoff.
   */
  private async applyThroughConflicts(items: T[]): ReturnType<GroupApply<T, R>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.apply(items);
      } catch (err) {
        if (attempt >= CONFLICT_ATTEMPTS || !isLockConflict(err)) throw err;
        this.options.logger?.debug(`${this.options.name}: group lost a lock conflict, applying it again`, {
          items: items.length,
          attempt,
        });
      }
    }
  }
}

/** Times a group is applied when each attempt loses a lock conflict, before its items fail (transiently). */
const CONFLICT_ATTEMPTS = 3;

/** A PostgreSQL deadlock (40P01) or serialization failure (40001), as pg or TypeORM's QueryFailedError reports it. */
function isLockConflict(err: unknown): boolean {
  const code = (e: unknown) =>
    e !== null && typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
  const c = code(err) ?? code((err as { driverError?: unknown } | null)?.driverError);
  return c === '40P01' || c === '40001';
}
