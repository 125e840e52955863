import { GroupCommit, withTransaction, type Logger } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { ChannelAccountStore } from '../domain/ports/account.port';
import type { AppliedStatusBatch, StatusReportIntake } from '../domain/ports/status-report.port';
import type { ReportedThroughMarks } from './reported-through-marks';
import {
  lockSetOf,
  namedMessageOf,
  type ReportedMessages,
  type StatusReport,
} from '../domain/lifecycle/status-reports';
import type { StatusEvents } from '../domain/ports/status-events.port';
import type { StatusReportRepository } from './status-report.repository';

/** A busy report's first retry comes after this, each next one this much later (at most 100 ms). */
const BUSY_RETRY_MS = 10;
/** Tries after which a busy report waits for its message's lock. */
const BUSY_TRIES = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Submitted extends StatusReport {
  /** Wait for the lock of the message its callback data names, rather than answer busy. */
  waitForAttempt: boolean;
}

/** The status rules applied to a locked batch, in its transaction (applyStatusReports): what follows its commit. */
export type ApplyLockedReports = (
  tx: EntityManager,
  reports: readonly StatusReport[],
  found: ReportedMessages,
) => Promise<AppliedStatusBatch>;

/**
 * The status-report queue's machinery: reports that arrive together are applied as one batch in one transaction
 * (a few statements for the batch), with only the rows some report of it can move locked, in id order.
 *
 * A report whose wamid no message has yet and whose callback data names a message another transaction holds (the
 * send recording that wamid right now, nearly always) is not waited for: it is left out of its batch (`busy`)
 * and submitted again a few milliseconds later, when it usually finds its message by its wamid; after BUSY_TRIES
 * it waits for the lock in its batch like any other report. Waiting at once would hold the whole batch's locks
 * meanwhile, which the send's next batch would then wait for in turn.
 *
 * A batch's status events go to the broker once it has committed, and its reports are answered (so acknowledged)
 * only once they are confirmed, or stored in the outbox when the broker cannot take them (StatusEventSender); how
 * far each number's reports came is noted then too (ReportedThroughMarks).
 */
export class StatusReportBatches implements StatusReportIntake {
  private readonly batches: GroupCommit<Submitted, 'applied' | 'busy'>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: StatusReportRepository,
    private readonly accounts: Pick<ChannelAccountStore, 'findCached'>,
    private readonly apply: ApplyLockedReports,
    private readonly events: StatusEvents,
    private readonly marks: ReportedThroughMarks,
    logger: Logger,
  ) {
    this.batches = new GroupCommit((batch) => this.applyBatch(batch), { name: 'status receipts', logger });
  }

  async submit(report: StatusReport): Promise<void> {
    let submitted: Submitted = { ...report, waitForAttempt: false };
    for (let tries = 1; (await this.batches.submit(submitted)) === 'busy'; tries += 1) {
      await sleep(Math.min(BUSY_RETRY_MS * tries, 100));
      if (tries >= BUSY_TRIES) submitted = { ...submitted, waitForAttempt: true };
    }
  }

  private async applyBatch(batch: Submitted[]): Promise<Array<'applied' | 'busy'>> {
    const { outcomes, applied } = await this.applyInTransaction(batch);
    await this.events.send(applied.events);
    this.marks.note(applied.reportedThrough);
    return outcomes;
  }

  private applyInTransaction(
    batch: Submitted[],
  ): Promise<{ outcomes: Array<'applied' | 'busy'>; applied: AppliedStatusBatch }> {
    return withTransaction(this.dataSource, async (tx) => {
      const named = (reports: Submitted[]) => [...new Set(reports.flatMap((r) => namedMessageOf(r) ?? []))];
      const { messages, settled, busy } = await this.store.lockForReports(tx, lockSetOf(batch), {
        wait: named(batch.filter((r) => r.waitForAttempt)),
        skipLocked: named(batch.filter((r) => !r.waitForAttempt)),
      });
      const known = new Set([...messages, ...settled].map((m) => m.providerMessageId));
      const busyIds = new Set(busy.map((m) => m.id));
      const outcomes = batch.map((r) => {
        const id = namedMessageOf(r);
        return !known.has(r.item.provider_message_id) && id !== undefined && busyIds.has(id)
          ? 'busy'
          : 'applied';
      });
      // Only a message without its wamid can be given one by a report naming its attempt: only its number is asked.
      const numberOf = new Map<string, string>();
      const unanswered = messages.filter((m) => m.providerMessageId === null);
      for (const accountId of new Set(unanswered.map((m) => m.channelAccountId))) {
        const account = await this.accounts.findCached(accountId);
        if (account) numberOf.set(accountId, account.phoneNumberId);
      }
      const ready = batch.filter((_r, i) => outcomes[i] === 'applied');
      const applied = await this.apply(tx, ready, { locked: messages, settled, numberOf });
      return { outcomes, applied };
    });
  }
}
