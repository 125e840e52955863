import { costOf, type RateCard } from '@bm/platform';
import type { InboundStatusItem, MessageStatus } from '@bm/contracts';
import type { ForwardMove, MessageLog, SentRecord, StatusEventToSend } from '../ports/message-log.port';
import type { ReportedThrough, ReportMark, StatusReport } from '../ports/status-report.port';

export type { StatusReport };
import {
  attemptOf,
  canMoveTo,
  describeFailure,
  recipientOf,
  reachedStatusEvent,
  sentRecord,
  statusEvent,
  statusesBefore,
  type StatusChange,
} from './message-lifecycle';

/*
 * What the upstream's status reports do to the messages they name, as plain rules over a batch (no I/O): which
 * rows a batch must lock, which report moves which message forward and with which event, which send attempt a
 * report settles when its answer never came, which reports wait for their wamid, and what a report says beside
 * its status (a hold ended, a voice message played, a price). The use case applies the plan; data access locks
 * and writes it.
 */

type ReportFields = Pick<InboundStatusItem, 'status' | 'errors' | 'occurred_at'>;

/** The status change a report asks for; `played` moves no status. */
export function changeOf(report: ReportFields): StatusChange | undefined {
  if (report.status === 'played') return undefined;
  const at = new Date(report.occurred_at);
  if (report.status !== 'failed') return { status: report.status as MessageStatus, at };
  const error = report.errors[0];
  return {
    status: 'failed',
    at,
    errorCode: error?.code ?? null,
    errorMessage: describeFailure(
      error?.code ?? null,
      error?.details || error?.message || error?.title || 'delivery failed',
    ),
  };
}

/** What a batch must lock: each wamid's messages in the statuses some report of it can move them from. */
export function lockSetOf(reports: readonly StatusReport[]): Array<{
  providerMessageId: string;
  movableFrom: MessageStatus[];
}> {
  const movableFrom = new Map<string, Set<MessageStatus>>();
  for (const { item } of reports) {
    const from = movableFrom.get(item.provider_message_id) ?? new Set<MessageStatus>();
    const change = changeOf(item);
    if (change) for (const status of statusesBefore(change.status)) from.add(status);
    movableFrom.set(item.provider_message_id, from);
  }
  return [...movableFrom].map(([providerMessageId, from]) => ({ providerMessageId, movableFrom: [...from] }));
}

/** The message a report's callback data names (the send attempt it reports), if it is one of ours. */
export function namedMessageOf(report: StatusReport): number | undefined {
  return attemptOf(report.item.biz_opaque_callback_data)?.messageLogId;
}

/** The messages a batch's reports name, as data access found them. */
export interface ReportedMessages {
  /** Locked: those some report can move, by wamid or named by its callback data. */
  locked: readonly MessageLog[];
  /** Named by wamid, read without a lock: no report of the batch can move them (statuses only move forward). */
  settled: readonly MessageLog[];
  /** Each of their channel accounts' phone number id: an attempt is ours only when its own number reports it. */
  numberOf: ReadonlyMap<string, string>;
}

/** What a batch of reports does, for the use case to write in one transaction, in this order. */
export interface StatusReportPlan {
  /** Sends whose answer never came, made `sent` with the wamid a report of their attempt carries. */
  reconciled: SentRecord[];
  /** The reports that settled them, and when the attempt they name started (its answer may yet be on its way). */
  reconciledBy: Array<{
    messageLogId: number;
    attempt: number;
    reportStatus: string;
    startedAt: Date | null;
  }>;
  /** Reports of an attempt a later one superseded: they change nothing. */
  superseded: Array<{ messageLogId: number; attempt: number; status: MessageStatus; reportStatus: string }>;
  /** Reports that name no message of ours yet, kept until a send records their wamid. */
  pending: InboundStatusItem[];
  /** Forward moves; `rounds[k]` holds each message's (k+1)-th move, since one statement updates a row once. */
  rounds: ForwardMove[][];
  /** Reports of a message that one of them fails: applied one by one in arrival order. */
  oneByOne: StatusReport[];
  /** The status events a repeated report's message had already reached: sent again as they were (`repeat`). */
  again: StatusEventToSend[];
  /** What the reports say beside a status. */
  marks: ReportMark[];
  /** How far each number's reports have come: the send answers (sent_at) of the messages they named. */
  reportedThrough: ReportedThrough[];
}

const FORWARD = new Set<MessageStatus>(['sent', 'delivered', 'read']);

/**
 * The plan of a batch of reports, in arrival order, as each report would apply alone:
 * - a report whose wamid no message has, naming (callback data `bm1:<id>:<attempt>`) a queued message without a
 *   wamid, by the message's own number, gives it that wamid: its send reached the upstream although its answer
 *   never came (or has not come yet). It becomes `sent` as an answer would make it, and its reports apply;
 * - a report naming a message that has another wamid or was settled belongs to a superseded attempt;
 * - a report naming no message of ours waits for its wamid;
 * - sent, delivered and read reports move their message forward (a duplicate or a late one changes nothing);
 *   a message that one of its reports fails is left to the status rules one report at a time.
 */
export function planStatusReports(
  reports: readonly StatusReport[],
  found: ReportedMessages,
  rateCard: RateCard,
): StatusReportPlan {
  const byWamid = new Map(
    found.locked.flatMap((m) => (m.providerMessageId ? [[m.providerMessageId, m]] : [])),
  );
  const byId = new Map(found.locked.map((m) => [m.id, m]));
  const settled = new Map(found.settled.map((m) => [m.providerMessageId, m]));
  const plan: StatusReportPlan = {
    reconciled: [],
    reconciledBy: [],
    superseded: [],
    pending: [],
    rounds: [],
    oneByOne: [],
    again: [],
    marks: reportMarks(rateCard, reports, [...found.locked, ...found.settled]),
    reportedThrough: [
      ...reports.flatMap((r) => byWamid.get(r.item.provider_message_id) ?? []),
      ...found.settled,
    ].flatMap((m) => (m.sentAt ? [{ channelAccountId: m.channelAccountId, sentAt: m.sentAt }] : [])),
  };
  // The messages the batch moves, as each would be once the reports before it applied.
  const current = new Map(byWamid);
  const reconciledAs = new Map<number, string>();
  const ofMessage = new Map<string, StatusReport[]>();
  for (const report of reports) {
    const wamid = report.item.provider_message_id;
    const done = settled.get(wamid);
    if (done) {
      const again = report.repeat && reachedStatusEvent(done, report.item.status, report.traceparent);
      if (again) plan.again.push(again);
      continue;
    }
    if (!current.has(wamid)) {
      const attempt = attemptOf(report.item.biz_opaque_callback_data);
      const message = attempt && byId.get(attempt.messageLogId);
      const ours =
        message &&
        attempt.attempt <= message.sendAttempts &&
        found.numberOf.get(message.channelAccountId) === report.item.phone_number_id;
      if (!ours) {
        plan.pending.push(report.item);
        continue;
      }
      const taken = reconciledAs.get(message.id);
      if (taken !== undefined || message.status !== 'queued' || message.providerMessageId !== null) {
        plan.superseded.push({
          messageLogId: message.id,
          attempt: attempt.attempt,
          status: taken !== undefined ? 'sent' : message.status,
          reportStatus: report.item.status,
        });
        continue;
      }
      reconciledAs.set(message.id, wamid);
      plan.reconciled.push(sentRecord(message, wamid, message.traceparent ?? report.traceparent));
      plan.reconciledBy.push({
        messageLogId: message.id,
        attempt: attempt.attempt,
        reportStatus: report.item.status,
        startedAt: message.attemptStartedAt,
      });
      current.set(wamid, { ...message, status: 'sent', providerMessageId: wamid });
    }
    ofMessage.set(wamid, [...(ofMessage.get(wamid) ?? []), report]);
  }
  for (const [wamid, itsReports] of ofMessage) {
    const message = current.get(wamid)!;
    // A repeated report of a status its message had reached before this batch: its event may be the one a crash
    // lost. (Another report of the batch is why the message was locked rather than settled.)
    for (const report of itsReports) {
      const again = report.repeat && reachedStatusEvent(message, report.item.status, report.traceparent);
      if (again) plan.again.push(again);
    }
    const changes = itsReports.map((r) => changeOf(r.item));
    if (!changes.every((c) => c !== undefined && FORWARD.has(c.status))) {
      plan.oneByOne.push(...itsReports);
      continue;
    }
    let status = message.status;
    let round = 0;
    itsReports.forEach((report, i) => {
      const change = changes[i]!;
      if (!canMoveTo(status, change.status)) return;
      const next = change.status as ForwardMove['status'];
      const event = statusEvent({ ...message, status: next }, status);
      (plan.rounds[round] ??= []).push({
        id: message.id,
        status: next,
        expected: statusesBefore(next),
        at: change.at ?? new Date(),
        eventId: event.messageId,
        event: event.payload,
        traceparent: message.traceparent ?? report.traceparent,
      });
      round += 1;
      status = next;
    });
  }
  return plan;
}

/**
 * What reports say beside a status (CONTRACT.md, the network of late 2026): any report of a held message ends
 * its hold, `played` (which moves no status and emits nothing) records when a voice message was played, and a
 * report's `pricing` prices the message by the operator's rate card.
 */
export function reportMarks(
  rateCard: RateCard,
  reports: ReadonlyArray<{
    item: Pick<
      InboundStatusItem,
      'provider_message_id' | 'status' | 'occurred_at' | 'pricing' | 'biz_opaque_callback_data'
    >;
  }>,
  known: readonly MessageLog[],
): ReportMark[] {
  const byWamid = new Map(known.flatMap((m) => (m.providerMessageId ? [[m.providerMessageId, m]] : [])));
  const byId = new Map(known.map((m) => [m.id, m]));
  return reports.flatMap(({ item }) => {
    // A report that overtook its send's answer finds its message by the attempt it names (its wamid was not
    // recorded when the message was read): it prices that message all the same.
    const named = attemptOf(item.biz_opaque_callback_data)?.messageLogId;
    const message =
      byWamid.get(item.provider_message_id) ?? (named === undefined ? undefined : byId.get(named));
    const played = item.status === 'played';
    if (!message || (!played && !message.held && !item.pricing)) return [];
    const pricing = item.pricing
      ? { model: item.pricing.pricing_model, type: item.pricing.type, category: item.pricing.category }
      : null;
    return [
      {
        id: message.id,
        playedAt: played ? new Date(item.occurred_at) : null,
        priced: pricing && {
          pricing,
          cost: costOf(rateCard, pricing, recipientOf(message)),
          currency: rateCard.currency,
        },
      },
    ];
  });
}

const REPORT_ORDER = ['sent', 'delivered', 'read', 'failed', 'played'];

/** Reports kept before their message's wamid was known, in the order they apply: by status. */
export function inStatusOrder<R extends { status: string }>(kept: R[]): R[] {
  return [...kept].sort((a, b) => REPORT_ORDER.indexOf(a.status) - REPORT_ORDER.indexOf(b.status));
}
