import { flowGraphErrors } from '@bm/contracts/rules';
import type { Flow } from '../api/flows';

/*
 * The flow editor's model: steps a person thinks in (a message, with reply buttons that lead to other steps; a
 * hand-off to a person; the end), turned into the API's steps. A message with buttons becomes `send_buttons`
 * and a `wait_for_reply` (`<id>.wait`) whose branches follow the buttons; any other reply asks again.
 */

export type StepKind = 'message' | 'handoff' | 'end';
export const STEP_KINDS: Record<StepKind, string> = {
  message: 'Send a message',
  handoff: 'Hand off to a person',
  end: 'End the conversation',
};

export interface ButtonDraft {
  title: string;
  target: string;
}

export interface StepDraft {
  id: string;
  kind: StepKind;
  text: string;
  /** Reply buttons (at most 3); a message without buttons goes on to `next`. */
  buttons: ButtonDraft[];
  next: string;
}

export interface FlowDraft {
  name: string;
  /** Comma-separated keywords; empty with `anyNewConversation`. */
  keywords: string;
  anyNewConversation: boolean;
  steps: StepDraft[];
}

export const MAX_BUTTONS = 3;
const STEP_ID = /^[A-Za-z0-9_-]{1,40}$/;

export const newStep = (id: string, kind: StepKind = 'message'): StepDraft => ({
  id,
  kind,
  text: '',
  buttons: [],
  next: '',
});

export const emptyFlowDraft = (): FlowDraft => ({
  name: '',
  keywords: '',
  anyNewConversation: false,
  steps: [newStep('start')],
});

export const keywordsOf = (draft: FlowDraft) =>
  draft.keywords
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');

type ApiStep = Flow['steps'][number];
/** Where each API step came from: the editor step and, for a wait's branch, its button. */
interface Origin {
  step: number;
  wait: boolean;
}

/** The API steps of the draft, with the editor step each came from. */
export function stepsOf(draft: FlowDraft): { steps: ApiStep[]; origins: Origin[] } {
  const steps: ApiStep[] = [];
  const origins: Origin[] = [];
  draft.steps.forEach((s, i) => {
    if (s.kind === 'handoff' || s.kind === 'end') {
      steps.push({ id: s.id, type: s.kind });
      origins.push({ step: i, wait: false });
    } else if (s.buttons.length === 0) {
      steps.push({ id: s.id, type: 'send_text', text: s.text, next: s.next });
      origins.push({ step: i, wait: false });
    } else {
      const wait = `${s.id}.wait`;
      steps.push({
        id: s.id,
        type: 'send_buttons',
        body: s.text,
        buttons: s.buttons.map((b, j) => ({ id: `${s.id}.${j + 1}`, title: b.title })),
        next: wait,
      });
      steps.push({
        id: wait,
        type: 'wait_for_reply',
        branches: s.buttons.map((b, j) => ({ button_id: `${s.id}.${j + 1}`, next: b.target })),
        fallback: s.id,
      });
      origins.push({ step: i, wait: false }, { step: i, wait: true });
    }
  });
  return { steps, origins };
}

/** The draft of a saved flow, or null when it uses steps the editor does not edit (templates, lists...). */
export function draftOf(flow: Flow): FlowDraft | null {
  const saved = flow.steps as unknown as Array<{ id: string; type: string } & Record<string, unknown>>;
  const byId = new Map(saved.map((s) => [s.id, s]));
  const waits = new Set<string>();
  const steps: StepDraft[] = [];
  for (const s of saved) {
    if (waits.has(s.id)) continue;
    if (s.type === 'handoff' || s.type === 'end') steps.push(newStep(s.id, s.type));
    else if (s.type === 'send_text')
      steps.push({ ...newStep(s.id), text: String(s.text), next: String(s.next) });
    else if (s.type === 'send_buttons') {
      const wait = byId.get(String(s.next));
      if (wait?.type !== 'wait_for_reply' || wait.fallback !== s.id) return null;
      const branches = wait.branches as Array<{ button_id?: string; next: string }>;
      const buttons = (s.buttons as Array<{ id: string; title: string }>).map((b) => ({
        title: b.title,
        target: branches.find((br) => br.button_id === b.id)?.next ?? '',
      }));
      waits.add(wait.id);
      steps.push({ ...newStep(s.id), text: String(s.body), buttons });
    } else return null;
  }
  return {
    name: flow.name,
    keywords: flow.trigger.type === 'keyword' ? (flow.trigger.keywords ?? []).join(', ') : '',
    anyNewConversation: flow.trigger.type === 'new_conversation',
    steps,
  };
}

/** Errors keyed by field: `name`, `keywords`, `steps`, `steps.2.text`, `steps.2.buttons.1.target`... */
export type FlowErrors = Record<string, string>;

function stepErrors(draft: FlowDraft, errors: FlowErrors): void {
  const ids = new Set<string>();
  draft.steps.forEach((s, i) => {
    const at = `steps.${i}`;
    if (!STEP_ID.test(s.id)) errors[`${at}.id`] = 'letters, digits, _ and -, at most 40';
    else if (ids.has(s.id)) errors[`${at}.id`] = `another step is named ${s.id}`;
    ids.add(s.id);
    if (s.kind !== 'message') return;
    if (s.text.trim() === '') errors[`${at}.text`] = 'the message needs a text';
    else if (s.text.length > 1024) errors[`${at}.text`] = 'at most 1024 characters';
    if (s.buttons.length > MAX_BUTTONS) errors[`${at}.buttons`] = `at most ${MAX_BUTTONS} buttons`;
    s.buttons.forEach((b, j) => {
      if (b.title.trim() === '') errors[`${at}.buttons.${j}.title`] = 'the button needs a title';
      else if (b.title.length > 20) errors[`${at}.buttons.${j}.title`] = 'at most 20 characters';
    });
  });
  const known = new Set(draft.steps.map((s) => s.id));
  const target = (field: string, id: string) => {
    if (id === '') errors[field] ??= 'choose the step that follows';
    else if (!known.has(id)) errors[field] ??= `goes to ${id}, which is no step`;
  };
  draft.steps.forEach((s, i) => {
    if (s.kind !== 'message') return;
    if (s.buttons.length === 0) target(`steps.${i}.next`, s.next);
    s.buttons.forEach((b, j) => target(`steps.${i}.buttons.${j}.target`, b.target));
  });
}

/** The editor field an API error names (`steps[3].branches[1].next` of a wait is a button's target). */
export function flowFieldOf(apiField: string, origins: Origin[]): string {
  if (apiField === 'name') return 'name';
  if (apiField.startsWith('trigger')) return 'keywords';
  const m = /^steps\[(\d+)\](?:\.(.*))?$/.exec(apiField);
  const origin = m && origins[Number(m[1])];
  if (!m || !origin) return 'steps';
  const at = `steps.${origin.step}`;
  const rest = m[2] ?? '';
  const branch = /^branches\[(\d+)\]/.exec(rest);
  if (branch) return `${at}.buttons.${branch[1]}.target`;
  if (rest === 'next') return `${at}.next`;
  if (rest === 'text' || rest === 'body') return `${at}.text`;
  if (rest === 'id') return `${at}.id`;
  const button = /^buttons\[(\d+)\]/.exec(rest);
  if (button) return `${at}.buttons.${button[1]}.title`;
  return at;
}

/** Every error of the draft: its fields, then the API's graph rules (unreachable steps, no end, loops). */
export function flowDraftErrors(draft: FlowDraft): FlowErrors {
  const errors: FlowErrors = {};
  if (draft.name.trim() === '') errors.name = 'the flow needs a name';
  else if (draft.name.length > 200) errors.name = 'at most 200 characters';
  const keywords = keywordsOf(draft);
  if (!draft.anyNewConversation && keywords.length === 0) {
    errors.keywords = 'give at least one keyword, or start on any new conversation';
  } else if (!draft.anyNewConversation && (keywords.length > 50 || keywords.some((k) => k.length > 256))) {
    errors.keywords = 'at most 50 keywords of at most 256 characters';
  }
  if (draft.steps.length > 100) errors.steps = 'at most 100 steps';
  if (draft.steps.length === 0) errors.steps ??= 'the flow needs a first step';
  stepErrors(draft, errors);
  const referenceErrors = Object.keys(errors).some((k) => /\.(id|next|target)$/.test(k));
  if (!referenceErrors && draft.steps.length > 0) {
    const { steps, origins } = stepsOf(draft);
    for (const e of flowGraphErrors(steps as Parameters<typeof flowGraphErrors>[0])) {
      errors[flowFieldOf(e.field, origins)] ??= readable(e.message);
    }
  }
  return errors;
}

/** The graph rules speak of the API's steps; the editor's wait steps are part of their message. */
const readable = (message: string) => message.replace(/\.wait\b/g, '');

/** The POST / PUT body of the draft. */
export function saveRequestOf(draft: FlowDraft, channelAccountId: string) {
  return {
    channel_account_id: channelAccountId,
    name: draft.name,
    trigger: draft.anyNewConversation
      ? { type: 'new_conversation' as const }
      : { type: 'keyword' as const, keywords: keywordsOf(draft) },
    steps: stepsOf(draft).steps,
  };
}
