import type { WaitForReplyStep } from '@bm/contracts';

export { flowGraphErrors } from '@bm/contracts';

/** How a reply is compared with keywords and triggers: trimmed, spaces collapsed, any case. */
export function normalizeKeyword(text: string | null | undefined): string {
  return (text ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** What a customer's reply offers a wait step: the id of a reply button or list row, and its text. */
export interface FlowReply {
  kind: 'button' | 'list' | 'text';
  id: string | null;
  text: string | null;
}

/** The step a reply leads to: the first branch it matches, else the fallback. */
export function branchFor(step: WaitForReplyStep, reply: FlowReply): string {
  const text = normalizeKeyword(reply.text);
  for (const branch of step.branches) {
    if ('button_id' in branch && reply.kind === 'button' && reply.id === branch.button_id) return branch.next;
    if ('row_id' in branch && reply.kind === 'list' && reply.id === branch.row_id) return branch.next;
    if ('keyword' in branch && text !== '' && text === normalizeKeyword(branch.keyword)) return branch.next;
  }
  return step.fallback;
}

const CANCEL_WORDS = new Set(['cancel', 'stop']);

/** "cancel" or "stop" (the whole message, any case) ends a running session. */
export function isCancelRequest(reply: FlowReply): boolean {
  return reply.kind === 'text' && CANCEL_WORDS.has(normalizeKeyword(reply.text));
}

/** `{{name}}` replaced by the variable (empty when unset); `{{reply}}` by the last reply's text. */
export function interpolate(template: string, variables: Record<string, string>, reply?: FlowReply): string {
  return template.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_m, name: string) =>
    name === 'reply' ? (reply?.text ?? '') : (variables[name] ?? ''),
  );
}
