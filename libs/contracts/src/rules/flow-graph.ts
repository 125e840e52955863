import type { FieldError } from '../envelope';
import type { FlowStep } from '../schemas/flows';

/*
 * The graph rules of a flow, pure and without dependencies: the API checks a save with them and the dashboard's
 * flow editor checks the graph as the user types, so the two agree.
 */

/** The steps a step may go to next. */
export function flowStepSuccessors(step: FlowStep): string[] {
  switch (step.type) {
    case 'wait_for_reply':
      return [...step.branches.map((b) => b.next), step.fallback];
    case 'handoff':
    case 'end':
      return [];
    case 'send_text':
    case 'send_template':
    case 'send_buttons':
    case 'send_list':
    case 'set_variable':
      return [step.next];
  }
}

const isTerminal = (step: FlowStep) => step.type === 'end' || step.type === 'handoff';

/**
 * Checks a flow's graph on save: unique step ids, no `next` naming a missing step, every step reachable from the
 * first, an end (or hand-off) reachable from every step, and no loop that never waits for the customer (it
 * would send forever). Each error names the step's field, as a validation error of the body does.
 */
export function flowGraphErrors(steps: FlowStep[]): FieldError[] {
  const errors: FieldError[] = [];
  const index = new Map<string, number>();
  steps.forEach((step, i) => {
    if (index.has(step.id))
      errors.push({ field: `steps[${i}].id`, message: `step id ${step.id} is used twice` });
    else index.set(step.id, i);
  });
  steps.forEach((step, i) => {
    const refs: Array<[string, string]> =
      step.type === 'wait_for_reply'
        ? [
            ...step.branches.map((b, j): [string, string] => [`steps[${i}].branches[${j}].next`, b.next]),
            [`steps[${i}].fallback`, step.fallback],
          ]
        : flowStepSuccessors(step).map((target): [string, string] => [`steps[${i}].next`, target]);
    for (const [field, target] of refs) {
      if (!index.has(target)) errors.push({ field, message: `${field} names no step (${target})` });
    }
  });
  if (errors.length > 0 || steps.length === 0) return errors;

  const byId = new Map(steps.map((s) => [s.id, s]));
  const next = (id: string) => flowStepSuccessors(byId.get(id)!);
  const reachable = walk([steps[0].id], next);
  steps.forEach((step, i) => {
    if (!reachable.has(step.id)) {
      errors.push({ field: `steps[${i}]`, message: `step ${step.id} cannot be reached from the first step` });
    }
  });
  // Backwards from every end: the steps from which an end can be reached.
  const predecessors = new Map<string, string[]>();
  for (const step of steps)
    for (const target of flowStepSuccessors(step))
      predecessors.set(target, [...(predecessors.get(target) ?? []), step.id]);
  const canEnd = walk(
    steps.filter(isTerminal).map((s) => s.id),
    (id) => predecessors.get(id) ?? [],
  );
  if (!steps.some(isTerminal))
    errors.push({ field: 'steps', message: 'the flow has no end or handoff step' });
  else {
    steps.forEach((step, i) => {
      if (reachable.has(step.id) && !canEnd.has(step.id)) {
        errors.push({ field: `steps[${i}]`, message: `no end can be reached from step ${step.id}` });
      }
    });
  }
  const loop = loopWithoutWait(steps, byId);
  if (loop)
    errors.push({ field: 'steps', message: `steps ${loop.join(' -> ')} loop without waiting for a reply` });
  return errors;
}

function walk(start: string[], next: (id: string) => string[]): Set<string> {
  const seen = new Set<string>(start);
  const stack = [...start];
  while (stack.length > 0) {
    for (const target of next(stack.pop()!)) {
      if (!seen.has(target)) {
        seen.add(target);
        stack.push(target);
      }
    }
  }
  return seen;
}

/** A cycle through steps that never wait (depth-first search over the graph without wait steps). */
function loopWithoutWait(steps: FlowStep[], byId: Map<string, FlowStep>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const step = byId.get(id)!;
    if (step.type === 'wait_for_reply' || state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const target of flowStepSuccessors(step)) {
      const found = visit(target);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const step of steps) {
    const found = visit(step.id);
    if (found) return found;
  }
  return undefined;
}
