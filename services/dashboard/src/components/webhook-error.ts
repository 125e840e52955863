/**
 * An attempt's error as a person reads it: "HTTP 500", "connection refused", "timeout: no complete answer within
 * 10000 ms". The API's `class: detail` form stays as it is for programs.
 */
export function readableError(error: string, httpStatus: number | null): string {
  if (httpStatus !== null) {
    return error.startsWith('redirect_not_followed')
      ? `HTTP ${httpStatus} (redirect not followed)`
      : `HTTP ${httpStatus}`;
  }
  const at = error.indexOf(': ');
  const kind = (at < 0 ? error : error.slice(0, at)).replace(/_/g, ' ');
  const detail = at < 0 ? '' : error.slice(at + 2);
  // A bare error code (ECONNREFUSED) says no more than its class.
  return detail === '' || /^[A-Z0-9_]+$/.test(detail) ? kind : `${kind}: ${detail}`;
}
