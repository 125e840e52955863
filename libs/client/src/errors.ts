import type { components } from './generated/openapi';

type ErrorBody = components['schemas']['ErrorEnvelope']['error'];

/** An answer of the API that is not a success: its documented code, HTTP status, message and details. */
export class ApiError extends Error {
  readonly code: ErrorBody['code'];
  readonly status: number;
  readonly details?: ErrorBody['details'];
  readonly requestId: string | null;

  constructor(status: number, error: ErrorBody | undefined, requestId: string | null) {
    super(error?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = error?.code ?? 'INTERNAL_ERROR';
    this.details = error?.details;
    this.requestId = requestId;
  }
}

/** What openapi-fetch answers for one call. */
export interface FetchResult<T> {
  data?: { success: true; data: T };
  error?: unknown;
  response: Response;
}

/** The `data` of a success envelope; an ApiError for anything else. */
export function unwrap<T>(result: FetchResult<T>): T {
  if (result.data !== undefined && result.response.ok) return result.data.data;
  const body = result.error as { error?: ErrorBody } | undefined;
  throw new ApiError(result.response.status, body?.error, result.response.headers.get('x-request-id'));
}
