import { digitsOnly } from '../ids';

export type FaultMode = 'sync' | 'status';

/** A failure the sandbox injects into the sends it matches. */
export interface FaultRule {
  id: string;
  match: { to?: string; phone_number_id?: string };
  /** Absent for a rule that only slows the answer down. */
  error_code?: number;
  mode: FaultMode;
  /** Sends the rule still applies to; null for unlimited. */
  remaining: number | null;
  applied: number;
  delay_ms: number;
  http_status?: number;
  /** Accept the send (and report its statuses), then reset the connection instead of answering. */
  drop_answer?: boolean;
  created_at: string;
}

/** The fault chosen for one send. */
export interface AppliedFault {
  source: string;
  error_code?: number;
  mode: FaultMode;
  delay_ms: number;
  http_status?: number;
  drop_answer?: boolean;
}

/**
 * `/regex/flags` or a string starting with `^` is a regular expression tested against the digits-only
 * number; anything else must equal it once both are reduced to digits.
 */
export function compileToMatcher(pattern: string): (waId: string) => boolean {
  const slashed = /^\/(.+)\/([a-z]*)$/.exec(pattern);
  if (slashed !== null) {
    const re = new RegExp(slashed[1], slashed[2]);
    return (waId) => re.test(waId);
  }
  if (pattern.startsWith('^')) {
    const re = new RegExp(pattern);
    return (waId) => re.test(waId);
  }
  const wanted = digitsOnly(pattern);
  return (waId) => waId === wanted;
}

function matches(rule: FaultRule, waId: string, phoneNumberId: string): boolean {
  if (rule.remaining !== null && rule.remaining <= 0) return false;
  if (rule.match.phone_number_id !== undefined && rule.match.phone_number_id !== phoneNumberId) return false;
  return rule.match.to === undefined || compileToMatcher(rule.match.to)(waId);
}

/** The first rule, in creation order, that matches and has uses left; using it counts one use. */
export function takeFaultRule(
  rules: FaultRule[],
  waId: string,
  phoneNumberId: string,
): AppliedFault | undefined {
  const rule = rules.find((r) => matches(r, waId, phoneNumberId));
  if (rule === undefined) return undefined;
  rule.applied += 1;
  if (rule.remaining !== null) rule.remaining -= 1;
  return {
    source: rule.id,
    error_code: rule.error_code,
    mode: rule.mode,
    delay_ms: rule.delay_ms,
    http_status: rule.http_status,
    drop_answer: rule.drop_answer,
  };
}
