import type Joi from 'joi';
import type { HttpMethod } from '../routes';

/** Path parameters of an internal endpoint, by name (`:id` in the path is `id` here). */
export type PathParams = Record<string, string>;

/**
 * One internal HTTP endpoint between services: its method and Express path, the schemas the callee validates
 * with, and, as types only, what the caller sends and what comes back as the envelope's `data`. The callee mounts
 * `path` and validates with the schemas; the caller builds the call from the same object, so the two cannot drift.
 */
export interface InternalEndpoint<Params extends PathParams, Input, Output> {
  readonly method: HttpMethod;
  /** Express pattern, e.g. `/internal/v1/channel-accounts/:id/capacity`. */
  readonly path: string;
  /** Validates the path parameters, when they need more than being present. */
  readonly params?: Joi.ObjectSchema<Params>;
  /** Validates the input: the query string of a GET, the JSON body otherwise. */
  readonly input?: Joi.ObjectSchema<Input>;
  /** Never set: carries the types of the parameters and the answer to the caller. */
  readonly types?: { params: Params; output: Output };
}

/** Declares an internal endpoint; the type arguments are the contract's parameters, input and answer. */
export function internalEndpoint<Params extends PathParams, Input, Output>(
  endpoint: Omit<InternalEndpoint<Params, Input, Output>, 'types'>,
): InternalEndpoint<Params, Input, Output> {
  return endpoint;
}

/**
 * The path of one call: each `:name` replaced by its parameter, percent-encoded, dots too (a URL would resolve a
 * segment of `.` or `..` to another path instead of passing it on).
 */
export function internalPath<Params extends PathParams>(
  endpoint: InternalEndpoint<Params, unknown, unknown>,
  params: Params,
): string {
  return endpoint.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path}: no value for :${name}`);
    return encodeURIComponent(value).replace(/\./g, '%2E');
  });
}
