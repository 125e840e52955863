import type { ErrorCode } from './error-codes';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export interface FailureEnvelope {
  success: false;
  error: ErrorBody;
}

export type Envelope<T> = SuccessEnvelope<T> | FailureEnvelope;

/** Wraps a successful answer in the envelope. */
export function ok<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}

/** Wraps a failure in the envelope; details are omitted when absent. */
export function fail(code: ErrorCode, message: string, details?: Record<string, unknown>): FailureEnvelope {
  return { success: false, error: details === undefined ? { code, message } : { code, message, details } };
}

/** One field error of a VALIDATION_ERROR, e.g. `{ field: 'recipients[3].phone', message: '...' }`. */
export interface FieldError {
  field: string;
  message: string;
}
