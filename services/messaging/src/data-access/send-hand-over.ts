import { persistently, type Logger } from '@bm/platform';
import type { MessagingConfig } from '../config';
import type { MessageLog } from '../domain/ports/message-log.port';
import type {
  HandedOver,
  SendHandOver,
  SendingNumber,
  SendQueue,
  WorkerLease,
} from '../domain/ports/send-queue.port';
import type { SendResult } from '../domain/ports/upstream.port';
import type { ThroughputLimiter } from '../domain/sending/throughput-limiter';

/**
 * A message whose slot comes due within this time of the claim is handed to the upstream without first
 * recording that it is: a worker that dies within it leaves messages whose outcome is unknown.
 */
const HAND_OVER_UNRECORDED_MS = 100;
/** Not handed over: leaving the awaiting state could not be recorded; its claim goes back. */
const UNRECORDED = Symbol('unrecorded');
/** Not handed over: the claim is no longer this worker's (a sweep gave it to another). */
const NOT_OURS = Symbol('not ours');
/** Not handed over: this worker's lease may have lapsed, so its claim may have been taken over; given back if not. */
const LAPSED = Symbol('lapsed');
/** Not handed over: its slot had passed by the time the hand-over was recorded; its claim goes back. */
const LATE = Symbol('late');

/** The longest wait of claims given back while the number's budget cannot be asked. */
const MAX_PAUSE_MS = 5_000;

type CallOutcome = SendResult | typeof UNRECORDED | typeof NOT_OURS | typeof LATE | typeof LAPSED;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Claims and hands over queued messages, each at its number's throughput slot (see `SendHandOver`).
 *
 * A slow number's messages wait claimed for their slots (up to half the attempt grace). So that a worker dying
 * meanwhile does not leave them looking like calls of unknown outcome, the messages whose slot is not due within
 * HAND_OVER_UNRECORDED_MS (or who got none) are recorded as awaiting their slot as soon as the schedule is known,
 * and each group of them leaves that state in a committed write before its upstream call: the sweep sends those
 * again, safely, since they never left. A fast number's batch goes out within that time and costs no write.
 *
 * Slots are taken HAND_OVER_UNRECORDED_MS before they are due, so that a group's write is done by then; each call
 * leaves at its slot's instant, never earlier, and one whose write ended too late to keep the slot gives its claim
 * back (sent late, it would crowd the next second at the upstream, which counts arrivals).
 */
export class ClaimedSends implements SendHandOver {
  /** How long claims given back for an unavailable budget wait: doubled on each failure in a row. */
  private pauseMs = 0;

  constructor(
    private readonly queue: SendQueue,
    private readonly lease: WorkerLease,
    private readonly limiter: ThroughputLimiter,
    private readonly config: Pick<MessagingConfig, 'ATTEMPT_GRACE_MS' | 'SEND_RETRY_BASE_MS'>,
    private readonly logger: Logger,
  ) {}

  async handOver(
    ids: number[],
    numberFor: (channelAccountId: string) => Promise<SendingNumber>,
  ): Promise<HandedOver[]> {
    // Claims name this worker, whose lease must hold while it has them (a start, or a lapse: renewed first).
    if (!this.lease.holds()) await this.lease.renew();
    const claimed = await this.queue.claimAttempts(ids, this.lease.id);
    const byAccount = new Map<string, MessageLog[]>();
    for (const m of claimed)
      byAccount.set(m.channelAccountId, [...(byAccount.get(m.channelAccountId) ?? []), m]);
    const handed = await Promise.all(
      [...byAccount].map(([accountId, messages]) => this.paced(messages, () => numberFor(accountId))),
    );
    return handed.flat();
  }

  /** One number's claimed messages, each handed over as soon as its throughput allows. */
  private async paced(messages: MessageLog[], open: () => Promise<SendingNumber>): Promise<HandedOver[]> {
    const calls: Array<Promise<CallOutcome>> = [];
    const idsOf = (list: MessageLog[]) => list.map((m) => m.id);
    // The awaiting-slot writes of this batch, in order: a group's hand-over never overtakes the mark before it.
    let marks: Promise<unknown> = Promise.resolve();
    const inOrder = <T>(write: () => Promise<T>): Promise<T> => {
      const next = marks.catch(() => undefined).then(write);
      marks = next;
      return next;
    };
    // Messages from this index on wait for their slot, recorded as such: each group leaves that state before its call.
    let firstAwaiting = messages.length;
    // Called after each ask for slots, before any of them is used: the messages not yet handed over whose slot is
    // not due soon (on a later ask, those whose first slots were given up as late) are marked from here on.
    const onSchedule = (dueSoon: number) => {
      const boundary = calls.length + dueSoon;
      if (boundary >= firstAwaiting) return;
      const newlyAwaiting = messages.slice(boundary, firstAwaiting);
      firstAwaiting = boundary;
      inOrder(() => this.queue.markAwaitingSlot(newlyAwaiting, true)).catch((err: unknown) =>
        this.logger.warn('awaiting slot not recorded', { error: (err as Error).message }),
      );
    };
    try {
      const number = await open();
      // The attempt was recorded at the claim: a message waits for its slot at most half the grace after which an
      // attempt counts as abandoned, so waiting is never mistaken for a worker that died mid-call.
      const maxWaitMs = Math.min(10_000, this.config.ATTEMPT_GRACE_MS / 2);
      const granted = await this.limiter.acquire(
        messages[0].channelAccountId,
        number.throughputPerSecond,
        messages.length,
        (n, dueAt) => {
          const from = calls.length;
          const group = messages.slice(from, from + n);
          // The messages of the group still held by this claim (a sweep may have given a long-stalled one to
          // another worker), or 'unrecorded' when the write failed. Those due soon were never marked.
          const marked = group.slice(Math.max(0, firstAwaiting - from));
          const direct = idsOf(group.slice(0, group.length - marked.length));
          const held: Promise<Set<number> | 'unrecorded'> =
            marked.length === 0
              ? Promise.resolve(new Set(direct))
              : inOrder(() => this.queue.markAwaitingSlot(marked, false)).then(
                  (ids) => new Set([...direct, ...ids]),
                  () => 'unrecorded' as const,
                );
          group.forEach((message, k) => {
            calls.push(
              (async () => {
                const ids = await held;
                if (ids === 'unrecorded') return UNRECORDED;
                if (!ids.has(message.id)) return NOT_OURS;
                const wait = dueAt[k] - Date.now();
                if (wait > 0) await sleep(wait);
                if (Date.now() - dueAt[k] > this.limiter.latenessAllowedMs) return LATE;
                // A worker whose lease may have lapsed (a stalled process) may have had its claims taken over:
                // it sends nothing, and gives back those still its own.
                if (!this.lease.holds()) return LAPSED;
                return number.send(message);
              })(),
            );
          });
        },
        maxWaitMs,
        { withinMs: HAND_OVER_UNRECORDED_MS, onSchedule, leadMs: HAND_OVER_UNRECORDED_MS },
      );
      // A slow number's later slots are far off: those messages give their claim back rather than wait claimed.
      if (granted < messages.length) await this.giveBack(idsOf(messages.slice(granted)), 0);
      this.pauseMs = 0;
    } catch (err) {
      // The number could not be opened or its budget asked (Redis away): nothing was sent, nothing is counted. The
      // claims come back later each time it happens again, up to MAX_PAUSE_MS: an outage of a minute must not turn
      // every queued message into a claim and a delivery command every few hundred milliseconds, a backlog the
      // deliveries then have to work through after it.
      this.pauseMs = Math.min(Math.max(this.config.SEND_RETRY_BASE_MS, this.pauseMs * 2), MAX_PAUSE_MS);
      const unsent = idsOf(messages.slice(calls.length));
      this.logger.warn('sending paused, claims given back', {
        messages: unsent.length,
        retry_in_ms: this.pauseMs,
        error: (err as Error).message,
      });
      await this.giveBack(unsent, this.pauseMs);
    }
    const results = await Promise.all(calls);
    await marks.catch(() => undefined);
    const unrecorded = idsOf(messages.filter((_m, i) => results[i] === UNRECORDED));
    if (unrecorded.length > 0) {
      this.logger.warn('hand-over not recorded, claims given back', { messages: unrecorded.length });
      await this.giveBack(unrecorded, this.config.SEND_RETRY_BASE_MS);
    }
    const lapsed = idsOf(messages.filter((_m, i) => results[i] === LAPSED));
    if (lapsed.length > 0) {
      this.logger.warn('lease may have lapsed, claims given back unsent', { messages: lapsed.length });
      await this.giveBack(lapsed, this.config.SEND_RETRY_BASE_MS);
    }
    const late = idsOf(messages.filter((_m, i) => results[i] === LATE));
    if (late.length > 0) {
      this.logger.warn('slot passed before the hand-over was recorded, claims given back', {
        messages: late.length,
      });
      await this.giveBack(late, 0);
    }
    return results.flatMap((result, i) =>
      typeof result === 'symbol' ? [] : [{ message: messages[i], result }],
    );
  }

  leaveUnknown(ids: number[]): Promise<void> {
    return persistently(this.logger, 'leaving unknown outcomes to the sweeps', () =>
      this.queue.leaveToSweeps(ids, this.lease.id),
    );
  }

  private giveBack(ids: number[], delayMs: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return persistently(this.logger, 'giving claims back', () =>
      this.queue.releaseClaims(ids, delayMs, this.lease.id),
    );
  }
}
