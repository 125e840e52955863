import type { UpstreamFailure } from '../../domain/ports/upstream.port';
// Throughput, pair rate, maintenance, unknown and unavailable: the same send may succeed later.
const RETRYABLE_CODES = new Set([130429, 131056, 131057, 131000, 131016]);

/** Classifies an upstream answer by its error code (never by message text); 5xx and timeouts are retried. */
export function classifyFailure(
  code: number | null,
  httpStatus: number | null,
  message: string,
): UpstreamFailure {
  const transient = httpStatus === null || httpStatus >= 500 || httpStatus === 429;
  const retryable = code !== null ? RETRYABLE_CODES.has(code) : transient;
  return { ok: false, code, message, httpStatus, retryable };
}
