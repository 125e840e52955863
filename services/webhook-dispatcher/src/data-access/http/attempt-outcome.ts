import type { AttemptOutcome } from '../../domain/ports/webhook-sender.port';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  ENOTFOUND: 'dns_error',
  EAI_AGAIN: 'dns_error',
  EHOSTUNREACH: 'network_unreachable',
  ENETUNREACH: 'network_unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  CERT_HAS_EXPIRED: 'tls_error',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls_error',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls_error',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls_error',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls_error',
};

function codeOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; i += 1) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** Names a failure by class, `class: detail`, as the health monitor shows it, with the time it took. */
export function classifyFailure(
  err: unknown,
  timedOut: boolean,
  timeoutMs: number,
  durationMs: number,
): AttemptOutcome {
  const code = codeOf(err);
  if (code === 'ADDRESS_REFUSED') {
    // A policy refusal will not change on retry: the address is not ours to reach.
    return {
      httpStatus: null,
      durationMs,
      error: `address_blocked: ${(err as Error).message}`,
      retryable: false,
    };
  }
  const kind = timedOut ? 'timeout' : (NETWORK_CODES[code ?? ''] ?? 'network_error');
  const detail =
    kind === 'timeout'
      ? `no complete answer within ${timeoutMs} ms`
      : (code ?? (err as Error).message ?? 'unknown');
  return { httpStatus: null, durationMs, error: `${kind}: ${detail}`, retryable: true };
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
