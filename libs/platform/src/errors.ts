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

interface Visit {
  value: unknown;
  key?: string | number;
  parent?: Visit;
}

function pathOf(visit: Visit): Array<string | number> {
  const path: Array<string | number> = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) path.unshift(v.key);
  return path;
}

/**
 * The paths of strings holding a NUL character (`\u0000` in JSON): PostgreSQL text and jsonb cannot store one, so
 * such a value is refused at the entry point rather than failing in a query. Walked without recursion and without
 * copying paths, so a deeply nested body costs linear time and no stack.
 */
function nulPaths(value: unknown): Array<Array<string | number>> {
  const found: Array<Array<string | number>> = [];
  const stack: Visit[] = [{ value }];
  while (stack.length > 0 && found.length < 10) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) found.push(pathOf(visit));
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, key: i, parent: visit }));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        stack.push({ value: k, key: k, parent: visit }, { value: item, key: k, parent: visit });
      }
    }
  }
  return found;
}

/**
 * Whether any string (value or key) holds a NUL character: the common answer, no, without building the visit
 * records `nulPaths` keeps for its paths (a 50,000-recipient list costs a few milliseconds, not thirty).
 */
function hasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const key in v) {
        if (key.includes('\u0000')) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Validates a value with a joi schema; answers 422 VALIDATION_ERROR listing every bad field. */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, prefix?: string): T {
  const withPrefix = (path: ReadonlyArray<string | number>) => (prefix ? [prefix, ...path] : path);
  const nul = hasNul(value) ? nulPaths(value) : [];
  if (nul.length > 0) {
    const errors: FieldError[] = nul.map((path) => {
      const field = fieldPath(withPrefix(path)) || (prefix ?? 'body');
      return { field, message: `${field} must not contain NUL characters` };
    });
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', { errors });
  }
  const result = schema.validate(value, { abortEarly: false, convert: true, stripUnknown: false });
  if (result.error) {
    const errors: FieldError[] = result.error.details.map((d) => ({
      field: fieldPath(withPrefix(d.path)) || (prefix ?? 'body'),
      message: d.message.replace(/"/g, ''),
    }));
    throw new AppError('VALIDATION_ERROR', 'The request is invalid', { errors });
  }
  return result.value;
}
