import type { MessageLog } from './message-log.port';
import type { Tx } from './unit-of-work.port';

/** The scheduler's batches over message logs, each taken so that several replicas sweep side by side. */
export interface MessageSweeps {
  lockDueScheduled(tx: Tx): Promise<MessageLog[]>;
  takeDueRetries(tx: Tx): Promise<number[]>;
  /** When the longest-untouched ready queued message (no attempt, no retry due) was last touched, if any. */
  oldestReady(): Promise<Date | undefined>;
  /**
   * Touches a batch of queued messages, ready (no attempt, no retry due), untouched since `untouchedSince`; their
   * ids, each to get a new delivery command.
   */
  touchStranded(tx: Tx, untouchedSince: Date): Promise<number[]>;
  releaseUnfinishedAttempts(
    kind: 'awaiting slot' | 'unknown outcome, not resent',
    olderThanMs: number,
  ): Promise<number>;
  /**
   * Gives back, to be sent again now, the handed-over attempts that started more than `olderThanMs` ago with no
   * report of their own while their number's reports have come past them: a send of the same number answered
   * more than `marginMs` after the attempt started has been reported. Returns how many.
   */
  releaseRefutedAttempts(olderThanMs: number, marginMs: number): Promise<number>;
  /**
   * Takes over the claims of workers whose lease has lapsed (dead, or stalled past their lease), to be sent again
   * now: those still awaiting their slot at once, since they never left; those handed over once their number's
   * reports have come past them (a send of the same number answered more than `marginMs` after the claim has been
   * reported, none naming it). Returns how many of each.
   */
  releaseOrphanedClaims(marginMs: number): Promise<{ awaitingSlot: number; refuted: number }>;
  lockUnknownOutcomes(tx: Tx, olderThanMs: number): Promise<MessageLog[]>;
  /**
   * The earliest time a scheduled message or a retry falls due (or fell due just now), or an attempt in flight reaches the
   * end of its window (`settleAfterMs` after it started), if any.
   */
  nextDueAt(settleAfterMs: number): Promise<Date | undefined>;
}

/** The delivery queue, as the stranded sweep needs to see it. */
export interface DeliveryQueueWatch {
  /**
   * The latest instant before which every delivery command issued has left the queue for a worker, as last seen
   * (the queue empty, and no command older still waiting in the outbox); undefined until seen so.
   */
  drainedThrough(): Promise<Date | undefined>;
}
