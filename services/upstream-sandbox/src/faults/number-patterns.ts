import type { AppliedFault, FaultMode } from './fault-rule';

interface NumberPattern {
  suffix: string;
  error_code: number;
  mode: FaultMode;
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

export function patternFault(waId: string): AppliedFault | undefined {
  const pattern = NUMBER_PATTERNS.find((p) => waId.endsWith(p.suffix));
  if (pattern === undefined) return undefined;
  return {
    source: `pattern:${pattern.suffix}`,
    error_code: pattern.error_code,
    mode: pattern.mode,
    delay_ms: 0,
  };
}
