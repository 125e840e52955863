import type { FlowStep, MessageStatus, WaitForReplyStep } from '@bm/contracts';
import {
  branchFor,
  flowGraphErrors,
  interpolate,
  isCancelRequest,
  normalizeKeyword,
} from '../../src/domain/flows/flow-rules';
import {
  attemptOf,
  callbackDataOf,
  canMoveTo,
  describeFailure,
  isServiceWindowOpen,
  needsServiceWindow,
  queuedSubStateOf,
  retryDelayMs,
  retryRuleOf,
  SERVICE_WINDOW_HOURS,
  statusesBefore,
} from '../../src/domain/lifecycle/message-lifecycle';

/* Messaging's pure rules, without a database, a broker or the upstream: a message's statuses and sub-states, the
 * service window, a send attempt's name in the upstream's reports, and a conversation flow's graph. */

const STATUSES: MessageStatus[] = ['scheduled', 'queued', 'sent', 'delivered', 'read', 'failed', 'cancelled'];

describe('a message status moves only forward', () => {
  it('when a report moves a message on, then queued < sent < delivered < read, skipping allowed', () => {
    expect(canMoveTo('queued', 'sent')).toBe(true);
    expect(canMoveTo('sent', 'read')).toBe(true);
    expect(canMoveTo('queued', 'delivered')).toBe(true);
    expect(canMoveTo('read', 'delivered')).toBe(false);
    expect(canMoveTo('delivered', 'delivered')).toBe(false);
  });

  it('when a message fails, then from any state but read; failed and cancelled are final', () => {
    for (const s of ['scheduled', 'queued', 'sent', 'delivered'] as const)
      expect(canMoveTo(s, 'failed')).toBe(true);
    expect(canMoveTo('read', 'failed')).toBe(false);
    for (const next of STATUSES) {
      expect(canMoveTo('failed', next)).toBe(false);
      expect(canMoveTo('cancelled', next)).toBe(false);
    }
  });

  it('when a message is cancelled, then only from scheduled', () => {
    expect(STATUSES.filter((s) => canMoveTo(s, 'cancelled'))).toEqual(['scheduled']);
  });

  it('when an UPDATE asks which statuses may precede one, then it is exactly those canMoveTo allows', () => {
    for (const next of STATUSES) {
      expect(new Set(statusesBefore(next))).toEqual(new Set(STATUSES.filter((s) => canMoveTo(s, next))));
    }
    expect(statusesBefore('delivered').sort()).toEqual(['queued', 'scheduled', 'sent']);
  });

  it('when a failure has an upstream code, then the message names it first', () => {
    expect(describeFailure(131026, 'Message undeliverable')).toBe(
      'upstream error 131026: Message undeliverable',
    );
    expect(describeFailure(null, 'no account')).toBe('no account');
  });
});

describe('a queued message on its way to the upstream', () => {
  const now = new Date('2026-11-28T10:00:00Z');
  const facts = { attemptStartedAt: null, awaitingSlot: false, nextAttemptAt: null };

  it('when nothing is claimed or due, then it is ready; stranded once untouched past the sweep age', () => {
    expect(queuedSubStateOf(facts, now)).toBe('ready');
    const old = { ...facts, updatedAt: new Date(now.getTime() - 120_000) };
    expect(queuedSubStateOf(old, now, 60_000)).toBe('stranded');
    expect(queuedSubStateOf(old, now, 600_000)).toBe('ready');
  });

  it('when a worker claimed it, then it awaits its slot or is in flight', () => {
    const claimed = { ...facts, attemptStartedAt: now };
    expect(queuedSubStateOf({ ...claimed, awaitingSlot: true }, now)).toBe('awaiting-slot');
    expect(queuedSubStateOf(claimed, now)).toBe('in-flight');
  });

  it('when a retry is scheduled, then it is retry-due', () => {
    expect(queuedSubStateOf({ ...facts, nextAttemptAt: now }, now)).toBe('retry-due');
  });

  it('when an attempt is named in the upstream reports, then its callback data round-trips', () => {
    const data = callbackDataOf({ id: 42, sendAttempts: 2 });
    expect(data).toBe('bm1:42:2');
    expect(attemptOf(data)).toEqual({ messageLogId: 42, attempt: 2 });
    expect(attemptOf('someone else')).toBeUndefined();
    expect(attemptOf(null)).toBeUndefined();
  });
});

describe('the customer service window', () => {
  const now = new Date('2026-11-28T10:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('when the customer wrote within the window, then it is open; at its end and after, closed', () => {
    expect(SERVICE_WINDOW_HOURS).toBe(24);
    expect(isServiceWindowOpen(hoursAgo(23.9), now)).toBe(true);
    expect(isServiceWindowOpen(hoursAgo(24), now)).toBe(false);
    expect(isServiceWindowOpen(null, now)).toBe(false);
  });

  it('when a message is a template, then it needs no window; a free-form text does', () => {
    expect(needsServiceWindow('text')).toBe(true);
    expect(needsServiceWindow('template')).toBe(false);
  });
});

describe('conversation flow graphs', () => {
  const wait: WaitForReplyStep = {
    id: 'ask',
    type: 'wait_for_reply',
    branches: [
      { button_id: 'yes', next: 'done' },
      { keyword: 'Talk to  Agent', next: 'human' },
    ],
    fallback: 'done',
  };
  const steps = [
    { id: 'hello', type: 'send_text', text: 'Hi {{name}}', next: 'ask' },
    wait,
    { id: 'human', type: 'handoff' },
    { id: 'done', type: 'end' },
  ] as FlowStep[];

  it('when every step is reachable and every path ends, then the graph has no error', () => {
    expect(flowGraphErrors(steps)).toEqual([]);
  });

  it('when a step names a missing step or repeats an id, then each is reported', () => {
    const broken = [
      { id: 'hello', type: 'send_text', text: 'Hi', next: 'nowhere' },
      { id: 'hello', type: 'end' },
    ] as FlowStep[];
    expect(flowGraphErrors(broken).map((e) => e.message)).toEqual([
      'step id hello is used twice',
      'steps[0].next names no step (nowhere)',
    ]);
  });

  it('when a step cannot be reached from the first, then it is reported', () => {
    const island = [
      { id: 'hello', type: 'end' },
      { id: 'island', type: 'end' },
    ] as FlowStep[];
    expect(flowGraphErrors(island).map((e) => e.message)).toEqual([
      'step island cannot be reached from the first step',
    ]);
  });

  it('when steps loop without waiting for a reply, then the loop is reported', () => {
    const loop = [
      { id: 'a', type: 'send_text', text: 'x', next: 'b' },
      { id: 'b', type: 'send_text', text: 'y', next: 'a' },
      { id: 'c', type: 'end' },
    ] as FlowStep[];
    expect(
      flowGraphErrors(loop)
        .map((e) => e.message)
        .join(' '),
    ).toContain('loop without waiting for a reply');
  });

  it('when a customer replies, then the button, the keyword (any case and spacing) or the fallback decides', () => {
    expect(branchFor(wait, { kind: 'button', id: 'yes', text: 'Yes' })).toBe('done');
    expect(branchFor(wait, { kind: 'text', id: null, text: ' talk to agent ' })).toBe('human');
    expect(branchFor(wait, { kind: 'text', id: null, text: 'what?' })).toBe('done');
    expect(normalizeKeyword('  Talk   TO agent ')).toBe('talk to agent');
  });

  it('when a customer writes cancel or stop alone, then the session is cancelled', () => {
    expect(isCancelRequest({ kind: 'text', id: null, text: 'STOP' })).toBe(true);
    expect(isCancelRequest({ kind: 'text', id: null, text: 'stop it' })).toBe(false);
    expect(isCancelRequest({ kind: 'button', id: 'stop', text: 'stop' })).toBe(false);
  });

  it('when a text names variables, then each is replaced; {{reply}} by the reply, unknown ones by nothing', () => {
    expect(
      interpolate(
        'Hi {{name}}, you said {{ reply }}{{missing}}',
        { name: 'Ana' },
        { kind: 'text', id: null, text: 'yes' },
      ),
    ).toBe('Hi Ana, you said yes');
  });
});

describe('the retry rule of each upstream code (CONTRACT.md, holds, errors and their rules)', () => {
  it.each([130429, 131056, 131057])(
    'when the upstream answers %i, then the message waits and is tried again',
    (code) => {
      expect(retryRuleOf({ code, retryable: true })).toBe('wait');
      expect(retryRuleOf({ code, retryable: false })).toBe('wait');
    },
  );

  it.each([130472, 131026, 131050, 131062, 132015, 131049])(
    'when the upstream answers %i, then the message fails at once',
    (code) => {
      expect(retryRuleOf({ code, retryable: false })).toBe('never');
    },
  );

  it('when no code came (a 5xx, no answer) or a transient one, then the attempts decide', () => {
    expect(retryRuleOf({ code: null, retryable: true })).toBe('attempts');
    expect(retryRuleOf({ code: 131000, retryable: true })).toBe('attempts');
    expect(retryRuleOf({ code: null, retryable: false })).toBe('never');
  });

  it('when a message is refused again and again, then each wait doubles up to a minute', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(2_000, n))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(retryDelayMs(2_000, 6)).toBe(60_000);
    expect(retryDelayMs(2_000, 40)).toBe(60_000);
  });
});
