import type { MessageLog, SentRecord } from './message-log.port';
import type { SendResult } from './upstream.port';
import type { Tx } from './unit-of-work.port';

/**
 * The send path's queue of message logs: a worker claims queued messages for one attempt each, records that a
 * claim waits for its throughput slot, and settles the attempt (sent, retry later, or given back).
 */
export interface SendQueue {
  /** Claims queued messages for one send attempt each, recorded before the upstream call, as `claimant`'s. */
  claimAttempts(ids: number[], claimant: string): Promise<MessageLog[]>;
  /** Gives back `claimant`'s claims of messages that were never handed over; they come again after `delayMs`. */
  releaseClaims(ids: number[], delayMs: number, claimant: string): Promise<void>;
  /** Leaves `claimant`'s claims whose outcome is unknown to the sweeps (while it holds them, they leave them be). */
  leaveToSweeps(ids: number[], claimant: string): Promise<void>;
  /** Records that claimed messages wait for their slot (`true`) or are about to be handed over; the ids still held. */
  markAwaitingSlot(claimed: MessageLog[], awaiting: boolean): Promise<Set<number>>;
  /**
   * Ends a failed attempt of a still queued message, to be tried again in `delayMs`; answers whether it was. With
   * `withinMs` (a refusal that asks for time), only while the first such refusal of the message is no older than
   * that (it is recorded at the first); false once the window is over, the message left as it was.
   */
  scheduleRetry(id: number, delayMs: number, errorCode: number | null, withinMs?: number): Promise<boolean>;
  /**
   * Successful sends in one statement: each message becomes `sent` with its event and conversation; flags those
   * whose status reports overtook the send. In `tx` when given.
   */
  markSent(sent: SentRecord[], tx?: Tx): Promise<Array<{ message: MessageLog; hasPendingReports: boolean }>>;
}

/** A number ready to send: its pace, and a call of the upstream for one claimed message from it. */
export interface SendingNumber {
  throughputPerSecond: number;
  send(message: MessageLog): Promise<SendResult>;
}

/** What a handed-over message's call answered. */
export interface HandedOver {
  message: MessageLog;
  result: SendResult;
}

/**
 * The send path's machinery: claims, the pace of each number, and the claims' hand-over to the upstream, so that
 * a worker dying at any point leaves each message either never sent (given back, sent again) or handed over
 * (its outcome settled by the upstream's reports).
 */
export interface SendHandOver {
  /**
   * Claims queued messages for one attempt each and hands each to its number's `send` at its throughput slot;
   * answers each handed-over message with what its call answered. A claim not handed over (the number could not be
   * opened, the budget could not be asked, its slot is far off) is given back, to come again: nothing was sent.
   */
  handOver(
    ids: number[],
    numberFor: (channelAccountId: string) => Promise<SendingNumber>,
  ): Promise<HandedOver[]>;
  /**
   * Hands over claims whose call's outcome is unknown (a timeout, a broken connection) to the sweeps: the
   * upstream's reports naming the attempt settle them, else the window. Until then, while this worker lives, its
   * claims are its own to settle (it may hold an answer it cannot record yet).
   */
  leaveUnknown(ids: number[]): Promise<void>;
}

/**
 * A send worker's lease on the claims it makes (SEND_WORKER_LEASE_MS): renewed every few seconds; once it has lapsed
 * the worker is taken as dead and its claims are taken over by the sweep at once.
 */
export interface WorkerLease {
  /** The worker's id, written on each of its claims. */
  readonly id: string;
  /** Whether the lease surely still holds, by this process' clock: a worker hands nothing over once it may not. */
  holds(): boolean;
  /** Renews it; answers how many other workers' leases had lapsed (their claims are to be taken over now). */
  renew(): Promise<number>;
  /** Ends it at a clean stop, once nothing is in flight. */
  release(): Promise<void>;
}
