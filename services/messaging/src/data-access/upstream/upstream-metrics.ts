import { statusClass, type ServiceMetrics } from '@bm/platform';

export type UpstreamOperation =
  | 'send_message'
  | 'list_templates'
  | 'create_template'
  | 'subscribe_app'
  | 'mark_read'
  | 'media_lookup'
  | 'media_download'
  | 'media_upload';

/** What the Cloud API client records per call. */
export interface UpstreamMetrics {
  /** One finished call: its HTTP status (null when no answer came) and the upstream error code, if any. */
  call(
    operation: UpstreamOperation,
    seconds: number,
    httpStatus: number | null,
    errorCode: number | null,
  ): void;
}

/**
 * `bm_upstream_request_duration_seconds{operation,status_class}` and `bm_upstream_errors_total{operation,code}`,
 * the code being the upstream's error code (131049, 130429...), else `http_<status>` or `network`.
 */
export function upstreamMetrics(metrics: ServiceMetrics): UpstreamMetrics {
  const duration = metrics.histogram({
    name: 'bm_upstream_request_duration_seconds',
    help: 'Calls to the upstream Cloud API, by operation and HTTP status class (none: no answer)',
    labelNames: ['operation', 'status_class'],
  });
  const errors = metrics.counter({
    name: 'bm_upstream_errors_total',
    help: 'Upstream calls that failed, by operation and upstream error code (else http_<status> or network)',
    labelNames: ['operation', 'code'],
  });
  return {
    call(operation, seconds, httpStatus, errorCode) {
      duration.observe({ operation, status_class: statusClass(httpStatus) }, seconds);
      const failed = errorCode !== null || httpStatus === null || httpStatus >= 400;
      if (!failed) return;
      const code =
        errorCode !== null ? String(errorCode) : httpStatus === null ? 'network' : `http_${httpStatus}`;
      errors.inc({ operation, code });
    },
  };
}
