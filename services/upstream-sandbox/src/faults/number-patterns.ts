import type { AppliedFault, FaultMode } from './fault-rule';

interface NumberPattern {
  suffix: string;
  /** Absent for a hold that goes out normally. */
  error_code?: number;
  mode: FaultMode;
  held?: boolean;
  fail_only?: boolean;
  preferences_stop?: boolean;
}

/**
 * Built-in faults chosen by the last digits of the recipient, so a test can ask for a failure by its choice
 * of number alone. Turned off with SANDBOX_FAULT_PATTERNS=false.
 */
export const NUMBER_PATTERNS: readonly NumberPattern[] = [
  { suffix: '0049', error_code: 131049, mode: 'status' },
  { suffix: '0026', error_code: 131026, mode: 'status' },
  { suffix: '0047', error_code: 131047, mode: 'status' },
  { suffix: '0050', error_code: 131050, mode: 'status' },
  { suffix: '9429', error_code: 130429, mode: 'sync' },
  { suffix: '9056', error_code: 131056, mode: 'sync' },
  { suffix: '9057', error_code: 131057, mode: 'sync' },
  { suffix: '9500', error_code: 131000, mode: 'sync' },
  { suffix: '9503', error_code: 131016, mode: 'sync' },
];

/**
 * The patterns of the 2026 network, active only when the sandbox plays Graph v24.0 or later (its
 * `graph_version`, or the version of the send's path), so older runs and their random numbers never meet them.
 * They match the last characters of the number, or of the user id of a send by `recipient`.
 */
export const WIRE_2026_PATTERNS: readonly NumberPattern[] = [
  { suffix: '1015', mode: 'status', held: true },
  { suffix: '2015', error_code: 132015, mode: 'status', held: true, fail_only: true },
  { suffix: '0472', error_code: 130472, mode: 'status', fail_only: true },
  { suffix: '1050', error_code: 131050, mode: 'status', fail_only: true, preferences_stop: true },
  { suffix: '1062', error_code: 131062, mode: 'sync' },
];

export function patternFault(address: string, wire2026 = false): AppliedFault | undefined {
  const pattern =
    NUMBER_PATTERNS.find((p) => address.endsWith(p.suffix)) ??
    (wire2026 ? WIRE_2026_PATTERNS.find((p) => address.endsWith(p.suffix)) : undefined);
  if (pattern === undefined) return undefined;
  return {
    source: `pattern:${pattern.suffix}`,
    error_code: pattern.error_code,
    mode: pattern.mode,
    delay_ms: 0,
    held: pattern.held,
    fail_only: pattern.fail_only,
    preferences_stop: pattern.preferences_stop,
  };
}
