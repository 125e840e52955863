import type { MessageLog, SentRecord } from './message-log.port';
import type { Tx } from './unit-of-work.port';

/**
 * The send path's queue of message logs: a worker claims queued messages for one attempt each, records that a
 * claim waits for its throughput slot, and settles the attempt (sent, retry later, or given back).
 */
export interface SendQueue {
  /** Claims queued messages for one send attempt each, recorded before the upstream call. */
  claimAttempts(ids: number[]): Promise<MessageLog[]>;
  /** Gives back claims of messages that were never handed over; they come again after `delayMs`. */
  releaseClaims(ids: number[], delayMs: number): Promise<void>;
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
