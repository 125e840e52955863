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
  /** Answer `message_status: held_for_quality_assessment`; a status `error_code` then drops it (failed only). */
  held?: boolean;
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
  /** Answered `held_for_quality_assessment`. */
  held?: boolean;
  /** A status fault reported as `failed` alone: nothing went out, so no `sent` (and nothing billed). */
  fail_only?: boolean;
  /** The customer stopped marketing: a `user_preferences` webhook (`stop`) follows the failed status. */
  preferences_stop?: boolean;
}

/**
 * `/regex/flags` or a string starting with `^` is a regular expression tested against the digits-only
 * number (or the user id of a send to one); a user id must equal it exactly; anything else must equal the number
 * once both are reduced to digits.
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
  if (/[A-Za-z]/.test(pattern)) return (address) => address === pattern;
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
    held: rule.held,
    fail_only: rule.held === true && rule.error_code !== undefined ? true : undefined,
  };
}
