import type Joi from 'joi';
import { ERROR_CODES, type ErrorCode, type FieldError } from '@bm/contracts';
import { isStorableText } from './storable-text';

/** An error the client is meant to see: a documented code, its HTTP status, a message and optional details. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CODES[code].message,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
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
  /** Inside rows that take their own unpaired surrogates (see ValidateOptions). */
  lenient: boolean;
}

function pathOf(visit: Visit): Array<string | number> {
  const path: Array<string | number> = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) path.unshift(v.key);
  return path;
}

const NUL = '\u0000';

/** What makes a string unstorable (see storable-text), refused here rather than failing in a query later. */
function problemOf(text: string, lenient: boolean): string | undefined {
  if (isStorableText(text)) return undefined;
  if (text.includes(NUL)) return 'must not contain NUL characters';
  return lenient ? undefined : 'must not contain unpaired UTF-16 surrogates';
}

export interface ValidateOptions {
  /** Prepended to every field path. */
  prefix?: string;
  /**
   * A top-level array whose rows may hold unpaired surrogates: each such row is refused alone later (a campaign
   * turns it into a failed recipient, like an invalid phone) instead of the whole request. NUL is refused anyway.
   */
  rowsFailAlone?: string;
}

/**
 * The paths of unstorable strings (values and keys), with what is wrong with each. Walked without recursion
 * and without copying paths, so a deeply nested body costs linear time and no stack.
 */
function unstorablePaths(
  value: unknown,
  rowsFailAlone: string | undefined,
): Array<{ path: Array<string | number>; problem: string }> {
  const found: Array<{ path: Array<string | number>; problem: string }> = [];
  const stack: Visit[] = [{ value, lenient: false }];
  while (stack.length > 0 && found.length < 10) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v === 'string') {
      const problem = problemOf(v, visit.lenient);
      if (problem !== undefined) found.push({ path: pathOf(visit), problem });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, key: i, parent: visit, lenient: visit.lenient }));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const lenient = visit.lenient || (visit.parent === undefined && k === rowsFailAlone);
        stack.push(
          { value: k, key: k, parent: visit, lenient },
          { value: item, key: k, parent: visit, lenient },
        );
      }
    }
  }
  return found;
}

/**
 * Whether any string (value or key) is unstorable: the common answer, no, without building the visit records
 * `unstorablePaths` keeps for its paths (a 50,000-recipient list costs a few milliseconds, not thirty).
 */
function hasUnstorable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!isStorableText(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const key in v) {
        if (!isStorableText(key)) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Validates a value with a joi schema; answers 422 VALIDATION_ERROR listing every bad field. */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, options: ValidateOptions = {}): T {
  const { prefix } = options;
  const withPrefix = (path: ReadonlyArray<string | number>) => (prefix ? [prefix, ...path] : path);
  const unstorable = hasUnstorable(value) ? unstorablePaths(value, options.rowsFailAlone) : [];
  if (unstorable.length > 0) {
    const errors: FieldError[] = unstorable.map(({ path, problem }) => {
      const field = fieldPath(withPrefix(path)) || (prefix ?? 'body');
      return { field, message: `${field} ${problem}` };
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
