import type { InboundStatusItem } from '@bm/contracts';
import type { ForwardMove, StatusEventToSend } from './message-log.port';
import type { Tx } from './unit-of-work.port';
import type { MessagePricing } from '@bm/platform';

/** Status reports of messages, applied in batches, and those that came before their message's wamid. */
export interface StatusReportStore {
  /** Keeps receipts whose message has no provider id yet, to be applied once the send records it. */
  keepPendingReports(tx: Tx, items: InboundStatusItem[]): Promise<void>;
  /**
   * Moves each message forward, one statement for the batch; answers the moves made (a move whose message another
   * transaction moved meanwhile is not), whose status events the batch sends once it has committed.
   */
  moveForward(tx: Tx, moves: ForwardMove[]): Promise<ForwardMove[]>;
  /**
   * What reports say beside a status move, one statement for the batch: a held message is held no longer (any
   * later report), a voice message was played (`playedAt`, the first report's time kept), and the message's
   * pricing and cost (`priced`, the latest report's).
   */
  markReported(tx: Tx, marks: ReportMark[]): Promise<void>;
  /** Takes the reports kept for a provider message id, now that a message has it. */
  takePendingReports<R>(tx: Tx, providerMessageId: string): Promise<Array<{ status: string; report: R }>>;
  /**
   * Messages that have their provider id and yet kept reports (their transaction raced the reports'), among up to
   * `limit` kept reports that arrived after `after` (from the first when null), in arrival order.
   */
  messagesWithOrphanedReports(after: ReportCursor | null, limit: number): Promise<OrphanedReports>;
  /** Deletes up to `limit` kept reports older than `retentionHours`; answers how many. */
  deleteExpiredPendingReports(retentionHours: number, limit: number): Promise<number>;
}

/**
 * Where status reports come in: gathered into batches, their messages locked, and applied by the status rules
 * (applyStatusReports) in the batch's transaction. Answers once the report is applied (or kept for its wamid).
 */
export interface StatusReportIntake {
  submit(report: StatusReport): Promise<void>;
}

/** A point in the kept reports' arrival order. */
export interface ReportCursor {
  at: Date;
  providerMessageId: string;
}

/** One slice of the orphan sweep: what it found, where the next starts when the slice was full, and when it ran. */
export interface OrphanedReports {
  ids: number[];
  next: ReportCursor | null;
  /** The database's time of the check. */
  checkedAt: Date;
}

/** A receipt and the trace of the webhook that brought it. */
export interface StatusReport {
  item: InboundStatusItem;
  traceparent?: string;
  /**
   * The broker delivered this receipt before (a consumer died with it unacknowledged, or it is a retry): its batch
   * may have committed without its status event being sent, so a status it reports that the message has reached is
   * sent again (the same event, by its id).
   */
  repeat?: boolean;
}

/** How far a number's reports have come: the latest send answer (`sent_at`) among the messages they named. */
export interface ReportedThrough {
  channelAccountId: string;
  sentAt: Date;
}

/**
 * What a committed status batch still does: send its status events (before its receipts are acknowledged), and
 * record how far each number's reports have come (see `refutedAttempts` in the sweeps).
 */
export interface AppliedStatusBatch {
  events: StatusEventToSend[];
  reportedThrough: ReportedThrough[];
}

/** A report's mark on a message beside its status (the status store's `markReported`). */
export interface ReportMark {
  id: number;
  playedAt: Date | null;
  priced: { pricing: MessagePricing; cost: number; currency: string } | null;
}
