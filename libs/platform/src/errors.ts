import type Joi from 'joi';
import { ERROR_CODES, type ErrorCode, type FieldError } from '@bm/contracts';

/** An error the client is meant to see: a documented code, its HTTP status, a message and optional details. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CODES[code].message,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}

/** Turns a joi path into the API's field notation: `recipients[17].phone`. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((acc, part) => {
    if (typeof part === 'number') return `${acc}[${part}]`;
    return acc === '' ? part : `${acc}.${part}`;
  }, '');
}

/** Validates a value with a joi schema; answers 422 VALIDATION_ERROR listing every bad field. */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, prefix?: string): T {
  const result = schema.validate(value, { abortEarly: false, convert: true, stripUnknown: false });
  if (result.error) {
    const errors: FieldError[] = result.error.details.map((d) => {
      const path = prefix ? [prefix, ...d.path] : d.path;
      return { field: fieldPath(path) || (prefix ?? 'body'), message: d.message.replace(/"/g, '') };
    });
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', { errors });
  }
  return result.value;
}
